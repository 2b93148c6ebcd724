import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productRoutes } from "../../src/http/routes/index.js";
import { body, refusedInput } from "../helpers/http.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import { openSecret } from "../../src/services/watch/sealed-secret.js";

let svc: PaidService;
const json = { "content-type": "application/json" };
const post = (payload: unknown) => ({ method: "POST", headers: json, body: JSON.stringify(payload) });
const WATCHED = "https://weather.example/v1/forecast";
// A public literal: the subscription check needs no DNS, and nothing is ever sent in this file.
const HOOK = "https://93.184.216.34/hooks/lookout";

beforeAll(async () => {
  svc = await startPaidService({ routes: productRoutes });
  svc.ctx.clock.set(new Date());
});
afterAll(() => svc?.close());

const subscribe = async (payload: unknown, account = 0) => svc.payingFetch(account)(`${svc.url}/api/v1/watch`, post(payload));
const status = (id: string, headers: Record<string, string> = {}, method = "GET") => fetch(`${svc.url}/api/v1/watch/${id}`, { method, headers });

describe("POST /api/v1/watch", () => {
  it("pays 0.01 and answers the watch, its secrets (once) and the delivery format", async () => {
    const before = await svc.balanceOf(svc.payer(0));
    const res = await subscribe({ url: WATCHED, webhookUrl: HOOK });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-signal-product")).toBe("Watch by x402 Lookout");
    const w = await body(res);
    expect(w).toMatchObject({
      url: WATCHED,
      webhookUrl: HOOK,
      signals: ["dead", "zombie", "decoy_price_extreme"],
      alertsRemaining: 100,
      statusUrl: `${svc.url}/api/v1/watch/${w.watchId}`,
      unsubscribeUrl: `${svc.url}/api/v1/watch/${w.watchId}`,
      delivery: { method: "POST", format: expect.stringContaining("Standard Webhooks") },
      attribution: { product: "Watch by x402 Lookout" },
    });
    expect(w.secret).toMatch(/^[0-9a-f]{64}$/);
    // The Standard Webhooks form of the secret itself: whsec_ + base64 of its bytes (decision 0025).
    expect(w.signingSecret).toBe(`whsec_${Buffer.from(w.secret, "utf8").toString("base64")}`);
    expect(Date.parse(w.expiresAt) - Date.parse(w.createdAt)).toBe(30 * 86_400_000);
    expect(await svc.balanceOf(svc.payer(0))).toBe(before - 10_000n);

    // Its digest authenticates; the secret is kept to sign with (as-is here: no WATCH_SECRET_KEY); the watch is bound to the payment that settled it.
    const row = await svc.ctx.db.db.selectFrom("watches").selectAll().where("id", "=", w.watchId).executeTakeFirstOrThrow();
    expect(row.secret_hash.equals(createHash("sha256").update(w.secret).digest())).toBe(true);
    expect(openSecret(undefined, w.watchId, row.secret_sealed!)).toBe(w.secret);
    expect(row.signing_key).toBeNull();
    const payment = await svc.ctx.db.db.selectFrom("payments").select(["status", "route"]).where("id", "=", w.watchId).executeTakeFirstOrThrow();
    expect(payment).toEqual({ status: "settled", route: "watch" });
  });

  it("refuses bad input before asking for payment", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ url: WATCHED }, /^webhookUrl: /],
      [{ webhookUrl: HOOK }, /^url: /],
      [{ url: WATCHED, webhookUrl: HOOK, signals: ["dead", "wallet_drain"] }, /^signals\[1\]: unknown signal/],
      [{ url: WATCHED, webhookUrl: HOOK, signals: [] }, /^signals: signals needs at least one code/],
      [{ url: WATCHED, webhookUrl: HOOK, signals: Array(21).fill("dead") }, /^signals: at most 20 signals/],
      [{ url: WATCHED, webhookUrl: HOOK, signals: "dead" }, /^signals: signals must be an array/],
      [{ url: WATCHED, webhookUrl: "https://user:pw@93.184.216.34/h" }, /must not carry a user name or password/],
      [{ url: WATCHED, webhookUrl: "ftp://93.184.216.34/h" }, /must be an http\(s\) URL/],
      [{ url: WATCHED, webhookUrl: "hooks.example.com/h" }, /must be an absolute https URL/],
    ];
    const privateLiterals = [
      "10.0.0.1",
      "172.16.0.1",
      "192.168.1.1",
      "100.64.0.1",
      "169.254.169.254",
      "2852039166",
      "0xa9.0xfe.0xa9.0xfe",
      "0.0.0.0",
      "224.0.0.1",
      "[fd00:ec2::254]",
      "[fc00::1]",
      "[fe80::1]",
      "[ff02::1]",
      "[::]",
      "[::ffff:10.0.0.1]",
      "[::ffff:169.254.169.254]",
      "[64:ff9b:1::a00:1]",
    ];
    for (const host of privateLiterals) cases.push([{ url: WATCHED, webhookUrl: `https://${host}/h` }, /^webhookUrl: must not point at a private/]);
    for (const [payload, message] of cases) {
      const res = await refusedInput(`${svc.url}/api/v1/watch`, payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect((await body(res)).message, JSON.stringify(payload)).toMatch(message);
    }
  });

  it("refuses http, loopback in every notation and localhost before payment, charging a real client nothing", async () => {
    const before = await svc.balanceOf(svc.payer(1));
    const refused: Array<[string, string]> = [
      ["http://93.184.216.34/h", "webhookUrl: must be an https URL"],
      ["https://localhost/h", "webhookUrl: must not point at localhost"],
      ["https://api.localhost./h", "webhookUrl: must not point at localhost"],
    ];
    for (const host of ["127.0.0.1", "2130706433", "0x7f.1", "0177.0.0.1", "127.1", "[::1]", "[::ffff:127.0.0.1]", "[0:0:0:0:0:0:0:1]"]) {
      refused.push([`https://${host}:8443/h`, "webhookUrl: must not point at a private, loopback, link-local or otherwise non-public address"]);
    }
    for (const [webhookUrl, message] of refused) {
      const res = await refusedInput(`${svc.url}/api/v1/watch`, { url: WATCHED, webhookUrl });
      expect(res.status, webhookUrl).toBe(400);
      expect((await body(res)).message, webhookUrl).toBe(message);
    }
    // The x402 client signs the 402 it is given and is refused before settlement: nothing moves on chain.
    const paid = await subscribe({ url: WATCHED, webhookUrl: "http://2130706433/h" }, 1);
    expect(paid.status).toBe(400);
    expect(await svc.balanceOf(svc.payer(1))).toBe(before);
  });
});

describe("GET and DELETE /api/v1/watch/{id}", () => {
  it("answer with the secret, free; every miss is the same 404", async () => {
    const w = await body(await subscribe({ url: WATCHED, webhookUrl: HOOK, signals: ["dead", "slow", "dead"] }, 2));
    expect(w.signals).toEqual(["dead", "slow"]);
    const bearer = { authorization: `Bearer ${w.secret}` };

    const ok = await status(w.watchId, bearer);
    expect(ok.status).toBe(200);
    expect(await body(ok)).toMatchObject({
      watchId: w.watchId,
      state: "active",
      url: WATCHED,
      signals: ["dead", "slow"],
      alertsRemaining: 100,
      unsubscribedAt: null,
      signalStates: [
        { signal: "dead", state: "unknown", since: null },
        { signal: "slow", state: "unknown", since: null },
      ],
      deliveries: [],
    });
    expect((await status(w.watchId, { "x-watch-secret": w.secret })).status).toBe(200);

    const other = "0".repeat(64);
    const misses = [
      status(w.watchId, { authorization: `Bearer ${other}` }),
      status(w.watchId, { "x-watch-secret": w.secret.slice(0, 63) }),
      status(w.watchId),
      status(w.watchId, { authorization: w.secret }),
      status("6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10", bearer),
      status("not-a-uuid", bearer),
      status(w.watchId, { authorization: `Bearer ${other}` }, "DELETE"),
      status("not-a-uuid", bearer, "DELETE"),
    ];
    const bodies = [];
    for (const res of await Promise.all(misses)) {
      expect(res.status).toBe(404);
      const { request_id: _id, ...rest } = await body(res);
      bodies.push(rest);
    }
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(bodies[0]).toEqual({ error: "watch_not_found", message: "no watch with this id and secret" });

    const gone = await status(w.watchId, bearer, "DELETE");
    expect(gone.status).toBe(200);
    const g = await body(gone);
    expect(g).toMatchObject({ state: "unsubscribed", unsubscribedAt: expect.any(String) });
    expect(await body(await status(w.watchId, bearer))).toMatchObject({ state: "unsubscribed", unsubscribedAt: g.unsubscribedAt });
    expect((await status(w.watchId, bearer, "DELETE")).status).toBe(200);
  });

  it("are documented in the OpenAPI document", async () => {
    const doc = await body(await fetch(`${svc.url}/openapi.json`));
    expect(Object.keys(doc.paths["/api/v1/watch/{id}"])).toEqual(["get", "delete"]);
    expect(doc.paths["/api/v1/watch"].post["x-x402-amount"]).toBe("10000");
    expect((await fetch(`${svc.url}/api/v1/watch`)).status).toBe(200);
  });
});
