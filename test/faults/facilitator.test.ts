import { decodePaymentResponseHeader } from "@x402/core/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainReader } from "../../src/chain/chain-reader.js";
import { privateKeyToAccount } from "viem/accounts";
import { createLookoutClient } from "@x402-lookout/client";
import { reconcilePayments } from "../../src/services/payments/reconciler.js";
import { createLocalFacilitator, createRemoteFacilitator } from "../../src/chain/facilitator.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { startHttpFacilitator } from "../helpers/http-facilitator.js";
import { body } from "../helpers/http.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";

/**
 * Issues 9 and 21, faults: a facilitator (over HTTP, as x402.org or CDP are) that times out or
 * errors, before the handler runs (verify) or after it (settle). Before the handler nothing is
 * settled. After it the outcome may be unknown: the payer is told settlement_pending, never
 * "nothing was settled", and the reconciler ends it from the chain with the payer holding either
 * what it paid for or its money.
 */

const TIMEOUT_MS = 1500;
const TARGET = "https://weather.example/v1/forecast";
let svc: PaidService;
let remote: Awaited<ReturnType<typeof startHttpFacilitator>>;

beforeAll(async () => {
  svc = await startPaidService({
    routes: productRoutes,
    facilitatorTimeoutMs: TIMEOUT_MS,
    facilitator: async (devnet) => {
      remote = await startHttpFacilitator(createLocalFacilitator(devnet), { lateMs: TIMEOUT_MS + 1_000 });
      return createRemoteFacilitator(remote.url);
    },
  });
  // Wall-clock time: the devnet checks authorizations against real block time.
  svc.ctx.clock.set(new Date());
  const id = await seedListing(svc.ctx, { url: TARGET, service: "Skycast", provider: "0xaaa", price: "0.002" });
  await seedProbes(
    svc.ctx,
    id,
    series(2 * 3_600_000, 600_000, () => ({ status: 402, healthy: true, latency: 120 })),
  );
  await recompute(svc.ctx);
});
afterAll(async () => {
  await svc?.close();
  await remote?.close();
});

const json = { "content-type": "application/json" };
const buy = (i = 0, paymentId?: string) => svc.payingFetch(i, { paymentId })(`${svc.url}/api/v1/credits`, { method: "POST", headers: json, body: "{}" });
/** The reconciler as the API process runs it, `secondsLater` of chain time from now. */
const reconcile = (secondsLater = 0) =>
  reconcilePayments({
    db: svc.ctx.db.db,
    now: () => svc.ctx.clock.now(),
    chain: chainReader(svc.devnet.publicClient),
    graceMs: 0,
    chainNowSeconds: () => Date.now() / 1000 + secondsLater,
  });
const preflight = (i: number) => svc.payingFetch(i)(`${svc.url}/api/v1/preflight`, { method: "POST", headers: json, body: JSON.stringify({ url: TARGET }) });
const payments = () => svc.ctx.db.db.selectFrom("payments").select(["id", "route", "status", "error"]).orderBy("created_at").execute();
const settledCount = async () => (await payments()).filter((p) => p.status === "settled").length;

describe("facilitator faults", () => {
  it("pays normally through a facilitator over HTTP", async () => {
    remote.setMode("ok");
    expect((await buy()).status).toBe(200);
  });

  it.each([
    ["hangs", "hang"],
    ["fails with HTTP 500", "error"],
  ] as const)("answers 503 unsettled when the facilitator %s at verification", async (_what, mode) => {
    remote.setMode(mode);
    const before = await svc.balanceOf(svc.payer(0));
    const [rows, settled] = [(await payments()).length, await settledCount()];
    const started = Date.now();
    const res = await buy();
    const took = Date.now() - started;
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("30");
    expect(await body(res)).toMatchObject({ error: "facilitator_unavailable", payment_settled: false, settlement_skipped: true });
    // A hanging facilitator holds the agent for the time-out, no longer.
    if (mode === "hang") expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    expect(took).toBeLessThan(TIMEOUT_MS + 4_000);
    expect(await svc.balanceOf(svc.payer(0))).toBe(before);
    // Verification failed, so the handler never ran and nothing was claimed or settled.
    expect((await payments()).length).toBe(rows);
    expect(await settledCount()).toBe(settled);
  });

  it.each([
    ["fails with HTTP 500", "settle-error"],
    ["times out", "settle-hang"],
  ] as const)(
    "answers settlement_pending, never 'nothing settled', when settlement %s, and releases the payment once the chain says it can no longer land",
    async (_what, mode) => {
      remote.setMode(mode);
      const before = await svc.balanceOf(svc.payer(0));
      const settled = await settledCount();
      const res = await buy(0, `pay_faults_${mode}_000001`);
      expect(res.status).toBe(202);
      expect(res.headers.get("payment-response")).toBeNull();
      const answer = await body(res);
      expect(answer).toMatchObject({ error: "settlement_pending", payment_settled: null });
      // The paying request gets what it bought, inert until the settlement is confirmed.
      const { creditId } = answer.answer;
      expect(await svc.ctx.services.credits.spend(creditId)).toBeUndefined();
      expect((await payments()).at(-1)).toMatchObject({ route: "credits", status: "settling" });
      // The reconciler leaves it while the authorization could still land...
      expect(await reconcile()).toMatchObject({ released: 0, settled: 0, waiting: 1 });
      // ...and releases it once it cannot: the payer holds its money, and the bundle never worked.
      expect(await reconcile(3_600)).toMatchObject({ released: 1 });
      expect((await payments()).at(-1)).toMatchObject({ route: "credits", status: "released" });
      expect(await svc.balanceOf(svc.payer(0))).toBe(before);
      expect(await settledCount()).toBe(settled);
      expect(await svc.ctx.services.credits.spend(creditId)).toBeUndefined();
      expect((await fetch(`${svc.url}/api/v1/credits/${creditId}`)).status).toBe(404);
    },
  );

  it("a settlement that lands after the time-out answers settlement_pending, and the payer collects the answer once reconciled", async () => {
    remote.setMode("settle-late");
    const id = "pay_faults_settle_late_0001";
    const before = await svc.balanceOf(svc.payer(1));
    const rec = svc.recordingFetch(1, id);
    const res = await rec.fetch(`${svc.url}/api/v1/preflight`, { method: "POST", headers: json, body: JSON.stringify({ url: TARGET }) });
    expect(res.status).toBe(202);
    const pending = await body(res);
    expect(pending.error).toBe("settlement_pending");
    expect(pending.answer.metadata.service).toBe("Skycast");
    // It landed: the payer paid, so a retry must not be refused or charged again.
    await expect.poll(() => svc.balanceOf(svc.payer(1)), { timeout: 10_000 }).toBe(before - 1000n);
    expect(await reconcile()).toMatchObject({ settled: 1 });
    const collected = await fetch(`${svc.url}/api/v1/preflight`, {
      method: "POST",
      headers: { ...json, "payment-signature": rec.sent.at(-1)! },
      body: JSON.stringify({ url: TARGET }),
    });
    expect(collected.status).toBe(200);
    expect((await body(collected)).metadata.service).toBe("Skycast");
    expect(decodePaymentResponseHeader(collected.headers.get("payment-response")!).success).toBe(true);
    expect(await svc.balanceOf(svc.payer(1))).toBe(before - 1000n);
  });

  it("a payer without a payment-identifier whose settlement lands late holds a bundle that works once reconciled", async () => {
    remote.setMode("settle-late");
    const before = await svc.balanceOf(svc.payer(6));
    const res = await buy(6);
    expect(res.status).toBe(202);
    const { creditId } = (await body(res)).answer;
    await expect.poll(() => svc.balanceOf(svc.payer(6)), { timeout: 10_000 }).toBe(before - 500_000n);
    expect(await reconcile()).toMatchObject({ settled: 1 });
    const viaCredit = await fetch(`${svc.url}/api/v1/preflight`, {
      method: "POST",
      headers: { ...json, "x-credit-id": creditId },
      body: JSON.stringify({ url: TARGET }),
    });
    expect(viaCredit.status).toBe(200);
    expect(viaCredit.headers.get("x-credit-balance")).toBe("999");
  });

  it("the typed client collects an answer whose settlement landed late, with the same signed payment", async () => {
    remote.setMode("settle-late");
    const before = await svc.balanceOf(svc.payer(5));
    const client = createLookoutClient({
      baseUrl: svc.url,
      signer: privateKeyToAccount(svc.devnet.demoAccounts[5]!.privateKey),
      timeoutMs: 20_000,
      now: () => svc.ctx.clock.now().getTime(),
    });
    const report = await client.preflight({ url: TARGET });
    expect(report.metadata.service).toBe("Skycast");
    expect(await svc.balanceOf(svc.payer(5))).toBe(before - 1000n);
    expect((await payments()).at(-1)).toMatchObject({ route: "preflight", status: "settled" });
  });

  it("answers the 402 challenge without the report when the facilitator refuses the settlement, and records it", async () => {
    remote.setMode("settle-refuse");
    const before = await svc.balanceOf(svc.payer(2));
    const settled = await settledCount();
    const res = await preflight(2);
    expect(res.status).toBe(402);
    const answer = await body(res);
    expect(answer.error).toMatch(/^settlement_failed: invalid_transaction_state.*nothing was charged and the answer is withheld/);
    expect(answer.x402Version).toBe(2);
    for (const leak of ["ok", "warnings", "metadata", "evidence"]) expect(answer[leak]).toBeUndefined();
    expect(await svc.balanceOf(svc.payer(2))).toBe(before);
    expect(await settledCount()).toBe(settled);
    expect((await payments()).at(-1)).toMatchObject({ route: "preflight", status: "failed", error: "invalid_transaction_state" });
  });

  it("serves and settles again once the facilitator is back", async () => {
    remote.setMode("ok");
    const before = await svc.balanceOf(svc.payer(3));
    const res = await preflight(3);
    expect(res.status).toBe(200);
    expect(await svc.balanceOf(svc.payer(3))).toBe(before - 1000n);
  });
});
