import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalFacilitator, createRemoteFacilitator } from "../../src/chain/facilitator.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { startHttpFacilitator } from "../helpers/http-facilitator.js";
import { body } from "../helpers/http.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";

/**
 * Issue 9, faults: a facilitator (over HTTP, as x402.org or CDP are) that times out or errors,
 * before the handler runs (verify) or after it (settle). "Nothing settled" means the payer's
 * on-chain balance did not move and no ledger row is settled; an answer whose settlement failed
 * is recorded and withheld.
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
      remote = await startHttpFacilitator(createLocalFacilitator(devnet));
      return createRemoteFacilitator(remote.url);
    },
  });
  // Wall-clock time: the devnet checks authorizations against real block time.
  svc.ctx.clock.set(new Date());
  const id = await seedListing(svc.ctx, { url: TARGET, service: "Skycast", provider: "0xaaa", price: "0.002" });
  await seedProbes(svc.ctx, id, series(2 * 3_600_000, 600_000, () => ({ status: 402, healthy: true, latency: 120 })));
  await recompute(svc.ctx);
});
afterAll(async () => {
  await svc?.close();
  await remote?.close();
});

const json = { "content-type": "application/json" };
const buy = (i = 0) => svc.payingFetch(i)(`${svc.url}/api/v1/credits`, { method: "POST", headers: json, body: "{}" });
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

  it("withholds the answer and records it when settlement fails after the handler ran", async () => {
    remote.setMode("settle-error");
    const before = await svc.balanceOf(svc.payer(0));
    const settled = await settledCount();
    const res = await buy();
    expect(res.status).toBe(503);
    const answer = await body(res);
    expect(answer.payment_settled).toBe(false);
    expect(answer.creditId).toBeUndefined();
    expect(await svc.balanceOf(svc.payer(0))).toBe(before);
    expect(await settledCount()).toBe(settled);
    const failed = await svc.ctx.db.db.selectFrom("payments").select(["status", "error"]).where("status", "=", "settle_failed").execute();
    expect(failed.length).toBeGreaterThan(0);
    // The bundle minted for the unsettled payment cannot be used or read.
    const orphans = await svc.ctx.db.db.selectFrom("credits").innerJoin("payments", "payments.id", "credits.payment_id").select("credits.id").where("payments.status", "=", "settle_failed").execute();
    for (const o of orphans) expect(await svc.ctx.services.credits.spend(o.id)).toBeUndefined();
  });

  it("answers 503 without the report when settlement times out after the handler ran, and records it", async () => {
    remote.setMode("settle-hang");
    const before = await svc.balanceOf(svc.payer(1));
    const settled = await settledCount();
    const started = Date.now();
    const res = await preflight(1);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 4_000);
    expect(res.status).toBe(503);
    expect(res.headers.get("payment-response")).toBeNull();
    const answer = await body(res);
    expect(answer).toMatchObject({ error: "facilitator_unavailable", payment_settled: false });
    for (const leak of ["ok", "warnings", "metadata", "evidence", "risk_score"]) expect(answer[leak]).toBeUndefined();
    expect(await svc.balanceOf(svc.payer(1))).toBe(before);
    expect(await settledCount()).toBe(settled);
    expect((await payments()).at(-1)).toMatchObject({ route: "preflight", status: "settle_failed", error: expect.stringMatching(/settle timed out/) });
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
    expect((await payments()).at(-1)).toMatchObject({ route: "preflight", status: "settle_failed", error: "invalid_transaction_state" });
  });

  it("serves and settles again once the facilitator is back", async () => {
    remote.setMode("ok");
    const before = await svc.balanceOf(svc.payer(3));
    const res = await preflight(3);
    expect(res.status).toBe(200);
    expect(await svc.balanceOf(svc.payer(3))).toBe(before - 1000n);
  });
});
