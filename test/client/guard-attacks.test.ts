import type { IncomingMessage, ServerResponse } from "node:http";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookoutClient, type LookoutClient, type LookoutPolicyOptions } from "@x402-lookout/client";
import { productRoutes } from "../../src/http/routes/index.js";
import { guardedAgents } from "../helpers/guarded-agents.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import { startServer, type TestServer } from "../probes/helpers.js";

/**
 * Issue 34's attacks on a guarded agent, paid for real: an agent on @x402/fetch 2.27 and one on
 * @x402/axios 2.11 (its own @x402/core), each with the Lookout policy, against loopback merchants
 * on the devnet. A refused attack shows as no PAYMENT-SIGNATURE at the merchant and no balance change.
 */
const AGENT = 4;
const LOOKOUT_PAYER = 5;
const MERCHANT = 7;
let svc: PaidService;
let merchant: TestServer;
let lookout: LookoutClient;
/** Per path: the 402's accepts entry overrides; every paid request the merchant saw. */
const routes = new Map<string, Record<string, unknown>>();
const signed: string[] = [];

function challenge(path: string, over: Record<string, unknown>) {
  const entry = {
    scheme: "exact",
    network: svc.devnet.network,
    asset: svc.devnet.usdcAddress,
    payTo: privateKeyToAccount(svc.devnet.demoAccounts[MERCHANT]!.privateKey).address,
    amount: "1000",
    maxTimeoutSeconds: 60,
    extra: { name: "USDC", version: "2" },
    ...over,
  };
  return Buffer.from(JSON.stringify({ x402Version: 2, resource: { url: `${merchant.url}${path}` }, accepts: [entry] })).toString("base64");
}

function serve(req: IncomingMessage, res: ServerResponse) {
  req.resume();
  const over = routes.get(req.url ?? "/");
  if (!over) return res.writeHead(404).end();
  if (req.headers["payment-signature"]) signed.push(req.url ?? "/");
  res.writeHead(402, { "payment-required": challenge(req.url ?? "/", over), "content-type": "application/json" }).end("{}");
}

beforeAll(async () => {
  svc = await startPaidService({ routes: productRoutes, env: { ALLOW_PRIVATE_TARGETS: "true" } });
  merchant = await startServer(serve);
  const signer = privateKeyToAccount(svc.devnet.demoAccounts[LOOKOUT_PAYER]!.privateKey);
  lookout = createLookoutClient({ baseUrl: svc.url, signer, now: () => svc.ctx.clock.now().getTime() });
}, 180_000);
afterAll(async () => {
  await merchant?.close();
  await svc?.close();
});

/** The two official clients, guarded (test/helpers/guarded-agents.ts); both pay `url` or throw. */
function agents(options: Partial<LookoutPolicyOptions> = {}) {
  const { decisions, viaFetch, viaAxios } = guardedAgents(svc, lookout, AGENT, options);
  return { decisions, pay: { fetch: viaFetch, axios: viaAxios } };
}

const balance = () => svc.balanceOf(svc.payer(AGENT));

describe("one amount, one reading", () => {
  it("a 40-digit zero-padded amount beside maxAmountRequired 1000 is refused by both clients before anything is signed", async () => {
    routes.set("/padded", { amount: "0".repeat(34) + "999999", maxAmountRequired: "1000" });
    const before = await balance();
    for (const via of ["fetch", "axios"] as const) {
      const { pay, decisions } = agents({ maxPriceUsdc: "0.01", unknown: "block" });
      const err = (await pay[via](`${merchant.url}/padded`).catch((e: unknown) => e)) as Error;
      expect(err, via).toBeInstanceOf(Error);
      expect(String(err.message), via).toMatch(/malformed/);
      expect(decisions, via).toMatchObject([{ stage: "quote", decision: "block", reasons: ["malformed_quote"] }]);
    }
    expect(signed).not.toContain("/padded");
    expect(await balance()).toBe(before);
  });

  it("a maxTimeoutSeconds written as text (validBefore millennia away once added to the clock) is refused by both clients the same way", async () => {
    routes.set("/timeout-text", { maxTimeoutSeconds: "60" });
    const before = await balance();
    for (const via of ["fetch", "axios"] as const) {
      const { pay, decisions } = agents();
      const err = (await pay[via](`${merchant.url}/timeout-text`).catch((e: unknown) => e)) as Error;
      expect(String(err.message), via).toMatch(/max_timeout_not_an_integer/);
      expect(decisions, via).toMatchObject([{ stage: "quote", decision: "block", reasons: ["malformed_quote"] }]);
    }
    expect(signed).not.toContain("/timeout-text");
    expect(await balance()).toBe(before);
    const r = await lookout.preflight({
      url: `${merchant.url}/timeout-text`,
      paymentRequired: challenge("/timeout-text", routes.get("/timeout-text")!) as never,
    });
    expect(r).toMatchObject({ ok: false, recommended_action: "skip", quote: { terms: { amount: { value: "1000" } } } });
    expect(r.reason_codes).toContain("malformed_quote");
  });

  it("the service reads the same 402 as malformed_quote: ok false, skip", async () => {
    const header = challenge("/padded", routes.get("/padded")!);
    const r = await lookout.preflight({ url: `${merchant.url}/padded`, paymentRequired: header as never });
    expect(r.reason_codes).toContain("malformed_quote");
    expect(r).toMatchObject({ ok: false, recommended_action: "skip" });
  });
});
