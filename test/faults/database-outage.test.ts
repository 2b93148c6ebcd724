import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainReader } from "../../src/chain/chain-reader.js";
import { devnetRail } from "../../src/chain/payment-rail.js";
import { createApp } from "../../src/http/app.js";
import { createAppGate } from "../../src/http/payment/app-gate.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { listen } from "../../src/http/serve.js";
import { reconcilePayments } from "../../src/services/payments/reconciler.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { createDbOutage, type DbOutage } from "../helpers/db-outage.js";
import { freePort } from "../helpers/free-port.js";
import { body } from "../helpers/http.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";

/**
 * Issues 9 and 21, faults: the database becomes unavailable in the middle of a paid request. On
 * PostgreSQL (TEST_DATABASE_URL, as in CI) the service's connections go through a TCP proxy that
 * resets them and refuses new ones, a real outage; on PGlite, which runs inside the process, the
 * outage is emulated at the driver (see test/helpers/db-outage.ts).
 */

let chain: PaidService; // the devnet, a paying client and balances
let outage: DbOutage;
let ctx: TestContext;
let url: string;
let close: () => Promise<void>;
const TARGET = "https://weather.example/v1/forecast";
/** Read by no other test: its row is not in the process's report-row cache, so the outage meets the read. */
const UNREAD_TARGET = "https://weather.example/v1/history";
const json = { "content-type": "application/json" };
const preflight = (headers: Record<string, string> = {}, target = TARGET) => ({
  method: "POST",
  headers: { ...json, ...headers },
  body: JSON.stringify({ url: target }),
});

beforeAll(async () => {
  chain = await startPaidService({ routes: productRoutes });
  outage = await createDbOutage();
  const port = await freePort();
  ctx = await createTestContext({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}` }, { db: outage.db });
  // Wall-clock time: the devnet checks authorizations against real block time.
  ctx.clock.set(new Date());
  const id = await seedListing(ctx, { url: TARGET, service: "Skycast", provider: "0xaaa", price: "0.002" });
  await seedProbes(
    ctx,
    id,
    series(2 * 3_600_000, 600_000, () => ({ status: 402, healthy: true, latency: 120 })),
  );
  await seedListing(ctx, { url: UNREAD_TARGET, service: "Skycast", provider: "0xaaa", price: "0.002" });
  await recompute(ctx);
  const gate = await createAppGate(ctx, devnetRail(chain.devnet), productRoutes);
  const server = await listen(createApp({ ctx, routes: productRoutes, gate }), "127.0.0.1", port);
  url = server.url;
  close = async () => {
    await server.close(1000);
    await ctx.close();
    await outage.close();
  };
}, 120_000);

afterAll(async () => {
  await close?.();
  await chain?.close();
});

const settledPayments = () => ctx.db.db.selectFrom("payments").select("id").where("status", "=", "settled").execute();

describe(`the database unavailable mid-request`, () => {
  it("a paid preflight answers 503 unsettled when the database drops after the payment was claimed", async () => {
    const payer = chain.payer(0);
    const before = await chain.balanceOf(payer);
    const settledBefore = (await settledPayments()).length;
    // The gate has verified and claimed the payment; the outage starts at the handler's first
    // read, the listing lookup ("listings" in its text, "listing-rows" as a prepared statement).
    const wentDown = outage.downOnStatement("listing");
    const res = await chain.payingFetch(0)(`${url}/api/v1/preflight`, preflight());
    await wentDown;
    expect(res.status).toBe(503);
    expect(res.headers.get("payment-response")).toBeNull();
    const answer = await body(res);
    expect(answer).toMatchObject({ error: "service_unavailable", payment_settled: false, settlement_skipped: true, retry_after_seconds: 30 });
    expect(answer.warnings).toBeUndefined();
    expect(await chain.balanceOf(payer)).toBe(before);

    // While it stays down, every paid request fails fast with 503 and nothing is settled.
    const before1 = await chain.balanceOf(chain.payer(1));
    const started = Date.now();
    const again = await chain.payingFetch(1)(`${url}/api/v1/preflight`, preflight());
    expect(again.status).toBe(503);
    expect((await body(again)).payment_settled).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await chain.balanceOf(chain.payer(1))).toBe(before1);

    outage.restore();
    expect((await settledPayments()).length).toBe(settledBefore);
    // The claims the outage left open are released once the database is back, so the same
    // signed authorization could pay for a retry.
    const open = () => ctx.db.db.selectFrom("payments").select("id").where("status", "=", "claimed").execute();
    await expect.poll(async () => (await open()).length, { timeout: 10_000, interval: 200 }).toBe(0);
  });

  it("recovers when the database returns: the next paid request is answered and settled", async () => {
    outage.restore();
    const payer = chain.payer(2);
    const before = await chain.balanceOf(payer);
    const res = await chain.payingFetch(2)(`${url}/api/v1/preflight`, preflight());
    expect(res.status).toBe(200);
    expect((await body(res)).metadata.service).toBe("Skycast");
    expect(res.headers.get("payment-response")).not.toBeNull();
    expect(await chain.balanceOf(payer)).toBe(before - 1000n);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it("a credit-paid preflight answers 503 and the spent call is given back once the database returns", async () => {
    outage.restore();
    const credit = await body(await chain.payingFetch(3)(`${url}/api/v1/credits`, { method: "POST", headers: json, body: "{}" }));
    expect(credit.balance).toBe(1000);
    const wentDown = outage.downOnStatement("listing");
    const res = await fetch(`${url}/api/v1/preflight`, preflight({ "x-credit-id": credit.creditId }, UNREAD_TARGET));
    await wentDown;
    expect(res.status).toBe(503);
    expect(res.headers.get("x-credit-balance")).toBeNull();
    outage.restore();
    await expect.poll(async () => (await body(await fetch(`${url}/api/v1/credits/${credit.creditId}`))).balance, { timeout: 10_000, interval: 200 }).toBe(1000);
    // And the bundle pays again.
    const ok = await fetch(`${url}/api/v1/preflight`, preflight({ "x-credit-id": credit.creditId }));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-credit-balance")).toBe("999");
  });

  it("a database that fails right after settlement keeps the answer: the payer gets its bundle, and the ledger catches up from the chain", async () => {
    outage.restore();
    const payer = chain.payer(4);
    const before = await chain.balanceOf(payer);
    const wentDown = outage.downOnStatement("settled_at");
    const res = await chain.payingFetch(4, { paymentId: "pay_outage_after_settle_001" })(`${url}/api/v1/credits`, {
      method: "POST",
      headers: json,
      body: "{}",
    });
    await wentDown;
    expect(res.status).toBe(200);
    expect(res.headers.get("payment-response")).not.toBeNull();
    const { creditId } = await body(res);
    expect(await chain.balanceOf(payer)).toBe(before - 500_000n);
    outage.restore();
    const reconcile = () => reconcilePayments({ db: ctx.db.db, now: () => ctx.clock.now(), chain: chainReader(chain.devnet.publicClient), graceMs: 0 });
    await expect.poll(async () => (await reconcile(), (await fetch(`${url}/api/v1/credits/${creditId}`)).status), { timeout: 10_000, interval: 300 }).toBe(200);
    expect((await fetch(`${url}/api/v1/preflight`, preflight({ "x-credit-id": creditId }))).headers.get("x-credit-balance")).toBe("999");
  });
});
