import { validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiPath } from "../../src/http/openapi.js";
import type { PaidRoute } from "../../src/http/payment/types.js";
import { isPaid } from "../../src/http/registry.js";
import { body } from "../helpers/http.js";
import { allRoutes, startLookout, type LookoutService } from "./lookout-service.js";

let svc: LookoutService;
const paidRoutes = allRoutes.filter(isPaid);

beforeAll(async () => {
  svc = await startLookout();
});
afterAll(() => svc?.close());

describe("/.well-known/x402", () => {
  it("lists every paid route with method, price, network, asset, payTo and input and output schemas", async () => {
    const res = await fetch(`${svc.url}/.well-known/x402`);
    expect(res.status).toBe(200);
    const m = await body(res);
    expect(m).toMatchObject({ x402Version: 2, name: "x402 Lookout", url: svc.url });
    expect(m.resources.map((r: { method: string; path: string }) => `${r.method} ${r.path}`)).toEqual(
      paidRoutes.map((d) => `${d.method.toUpperCase()} ${openApiPath(d.path)}`),
    );
    for (const def of paidRoutes) {
      const r = m.resources.find((x: { path: string }) => x.path === openApiPath(def.path));
      expect(r, def.id).toMatchObject({
        resource: `${svc.url}${def.path}`,
        type: "http",
        price: def.price,
        network: "eip155:84532",
        asset: svc.devnet.usdcAddress,
        payTo: svc.devnet.payTo,
        maxTimeoutSeconds: 300,
        description: def.summary,
      });
      expect(r.accepts).toEqual(svc.gate.paymentRequired(def as PaidRoute).accepts);
      expect(r.amount).toBe(r.accepts[0].amount);
      expect(r.inputSchema.type, def.id).toBe("object");
      expect(r.outputSchema.type, def.id).toBe("object");
    }
    const verified = m.resources.find((r: { path: string }) => r.path === "/api/v1/verified");
    expect(verified).toMatchObject({ price: "1", amount: "1000000" });
    // name is optional (the catalog's service name stands in) and so is the payTo's proof of control.
    expect(verified.inputSchema.required).toEqual(["url"]);
    expect(Object.keys(verified.inputSchema.properties)).toEqual(["url", "name", "proof"]);
    expect(Object.keys(verified.outputSchema.properties)).toEqual(expect.arrayContaining(["certId", "jws", "badgeUrl", "attribution", "payTo", "host"]));
    expect(m.resources.find((r: { path: string }) => r.path === "/api/v1/delist-feed")).toMatchObject({ price: "5", amount: "5000000" });
  });
});

describe("/llms.txt and the agent card", () => {
  it("/llms.txt names every route with its price and links the machine-readable documents", async () => {
    const res = await fetch(`${svc.url}/llms.txt`);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = await res.text();
    expect(text.startsWith("# x402 Lookout\n\n> ")).toBe(true);
    for (const def of allRoutes) {
      expect(text, def.id).toContain(`${def.method.toUpperCase()} ${openApiPath(def.path)}](`);
      expect(text, def.id).toContain(def.price === null ? "free. " : `${def.price} USDC. `);
    }
    for (const link of ["/openapi.json", "/.well-known/x402", "/.well-known/agent-card.json", "/spec", "/dataset"]) expect(text).toContain(`${svc.url}${link}`);
  });

  it("the agent card has one skill per route", async () => {
    const card = await body(await fetch(`${svc.url}/.well-known/agent-card.json`));
    expect(card).toMatchObject({
      name: "x402 Lookout",
      url: svc.url,
      version: "1.0.0",
      documentationUrl: `${svc.url}/spec`,
      provider: { organization: "x402 Lookout", url: svc.url },
    });
    expect(card.skills.map((s: { id: string }) => s.id)).toEqual(allRoutes.map((d) => d.id));
    for (const s of card.skills) expect(s.name && s.description).toBeTruthy();
  });
});

describe("/.well-known/jwks.json", () => {
  it("publishes the Ed25519 public key, created once, without its private part", async () => {
    const a = await body(await fetch(`${svc.url}/.well-known/jwks.json`));
    const b = await body(await fetch(`${svc.url}/.well-known/jwks.json`));
    expect(a).toEqual(b);
    expect(a.keys).toHaveLength(1);
    expect(a.keys[0]).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" });
    expect(a.keys[0]).not.toHaveProperty("d");
  });
});

describe("the OpenAPI document", () => {
  it("covers every route and the public surfaces, and a real validator accepts it", async () => {
    const doc = await body(await fetch(`${svc.url}/openapi.json`));
    for (const def of allRoutes) expect(doc.paths[openApiPath(def.path)]?.[def.method]?.operationId, def.id).toBe(def.id);
    for (const path of [
      "/.well-known/x402",
      "/llms.txt",
      "/.well-known/agent-card.json",
      "/.well-known/jwks.json",
      "/verified/{certId}",
      "/verified/{certId}/badge.svg",
      "/dataset",
      "/dataset/index.json",
      "/dataset/{id}/{file}",
      "/prober",
    ]) {
      expect(doc.paths[path]?.get, path).toBeTruthy();
    }
    expect(doc.paths["/api/v1/delist-feed"].post["x-x402-price-usdc"]).toBe("5");
    const result = await validate(structuredClone(doc));
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it("/prober says who probes and how to reach the operator, since probes name no one", async () => {
    const res = await fetch(`${svc.url}/prober`);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("x402 Lookout prober");
    expect(page).toContain("They do not name this service");
  });

  it("reference pages of the 1 and 5 USDC routes tell clients how to raise their spend cap", async () => {
    for (const path of ["/api/v1/verified", "/api/v1/delist-feed", "/api/v1/delist-feed-diff"]) {
      const html = await (await fetch(`${svc.url}${path}`)).text();
      expect(html, path).toContain("maxAmountPerPayment");
    }
  });
});
