import { decodePaymentResponseHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm";
import { wrapFetchWithPaymentFromConfig } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productRoutes } from "../../src/http/routes/index.js";
import { body } from "../helpers/http.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import { SKYCAST, seedSkycastCatalog } from "../helpers/skycast-catalog.js";

/**
 * The calls the x402station MCP adapter makes (sF1nX/x402station-mcp, src/index.ts): paid tools
 * through @x402/fetch reading the receipt from `x-payment-response` and decoding it with atob,
 * and watch status / unsubscribe with the secret in `x-x402station-secret`.
 */
let svc: PaidService;
beforeAll(async () => {
  svc = await startPaidService({ routes: productRoutes });
  await seedSkycastCatalog(svc.ctx);
});
afterAll(() => svc?.close());

async function callPaid(path: string, input: unknown) {
  const scheme = new ExactEvmScheme(privateKeyToAccount(svc.devnet.demoAccounts[5]!.privateKey));
  const paying = wrapFetchWithPaymentFromConfig(fetch, { schemes: [{ network: "eip155:84532", client: scheme }] });
  const res = await paying(`${svc.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) });
  const receipt = res.headers.get("x-payment-response");
  return { res, result: await body(res), receipt: receipt ? JSON.parse(atob(receipt)) : null };
}
const callFree = (path: string, method: "GET" | "DELETE", secret: string) =>
  fetch(`${svc.url}${path}`, { method, headers: { "x-x402station-secret": secret } });

describe("the x402station MCP adapter", () => {
  it("reads the settlement receipt of a paid tool under the v1 header name, the same receipt as PAYMENT-RESPONSE", async () => {
    const { res, receipt } = await callPaid("/api/v1/preflight", { url: "https://adapter.example/v1/quote" });
    expect(res.status).toBe(200);
    expect(receipt).toMatchObject({ success: true, network: "eip155:84532", payer: svc.payer(5), transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(receipt).toEqual(decodePaymentResponseHeader(res.headers.get("payment-response")!));
    expect(res.headers.get("access-control-expose-headers")).toBe("PAYMENT-RESPONSE, X-PAYMENT-RESPONSE");
  });

  it("gets an answer and a receipt from its other paid tools: forensics, catalog_decoys, alternatives", async () => {
    const calls = [
      ["/api/v1/forensics", { url: SKYCAST.forecast }, { ok: true, metadata: { url: SKYCAST.forecast } }],
      ["/api/v1/catalog/decoys", {}, { counts: { total: 1, by_reason: { dead_7d: 1 } } }],
      ["/api/v1/alternatives", { url: SKYCAST.broken, limit: 3 }, { alternatives: [{ match_reason: "same_service" }, { match_reason: "same_service" }] }],
    ] as const;
    for (const [path, input, answer] of calls) {
      const { res, result, receipt } = await callPaid(path, input);
      expect(res.status, path).toBe(200);
      expect(result, path).toMatchObject(answer);
      expect(receipt, path).toMatchObject({ success: true, payer: svc.payer(5) });
    }
  });

  it("subscribes a watch, reads its status and unsubscribes it with the secret in its own header", async () => {
    const { result: w, receipt } = await callPaid("/api/v1/watch", { url: "https://adapter.example/v1/quote", webhookUrl: "https://93.184.216.34/hooks" });
    expect(receipt).toMatchObject({ success: true });
    expect(w.watchId).toMatch(/^[0-9a-f-]{36}$/);
    expect(w.secret).toMatch(/^[0-9a-f]{64}$/); // the adapter's tools take exactly 64 characters

    const status = await callFree(`/api/v1/watch/${w.watchId}`, "GET", w.secret);
    expect(status.status).toBe(200);
    expect(await body(status)).toMatchObject({ watchId: w.watchId, state: "active" });
    // A wrong secret in that header is the same 404 as any other miss, and unsubscribes nothing.
    const wrong = await callFree(`/api/v1/watch/${w.watchId}`, "DELETE", "0".repeat(64));
    expect(wrong.status).toBe(404);
    expect(await body(wrong)).toMatchObject({ error: "watch_not_found" });

    const gone = await callFree(`/api/v1/watch/${w.watchId}`, "DELETE", w.secret);
    expect(gone.status).toBe(200);
    expect(await body(gone)).toMatchObject({ state: "unsubscribed" });
  });
});
