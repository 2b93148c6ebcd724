import { randomUUID } from "node:crypto";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BadRequestError,
  createLookoutClient,
  CreditAlreadyMintedError,
  NotFoundError,
  NotVerifiedError,
  PayloadTooLargeError,
  PaymentError,
  PaymentRequiredError,
  RateLimitedError,
  routeContracts,
  ServiceUnavailableError,
  type CallInfo,
  type LookoutClient,
  type LookoutClientOptions,
  type LookoutError,
} from "@x402-lookout/client";
import { productRoutes } from "../../src/http/routes/index.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import { insertDeliveryCheck } from "../helpers/delivery-check-row.js";
import { signedReport } from "../helpers/outcome-report.js";
import { settleOnChain } from "../helpers/settle-on-chain.js";
import { catchUp, devnetIndexer } from "../chain-index/setup.js";
import { SKYCAST, seedSkycastCatalog } from "../helpers/skycast-catalog.js";

let svc: PaidService;
let client: LookoutClient;
const calls: CallInfo[] = [];
const called = new Set<string>();
const { forecast: FORECAST, broken: BROKEN } = SKYCAST;
// A public literal: the subscription needs no DNS, and nothing is delivered in this file.
const HOOK = "https://93.184.216.34/hooks/lookout";

const signer = (i: number) => privateKeyToAccount(svc.devnet.demoAccounts[i]!.privateKey);
const make = (i: number, opts: Partial<LookoutClientOptions> = {}) =>
  createLookoutClient({ baseUrl: svc.url, signer: signer(i), validateResponses: true, now: () => svc.ctx.clock.now().getTime(), ...opts });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => expect.fail("expected the call to fail"),
    (e: unknown) => e as LookoutError,
  );
const last = () => calls.at(-1)!;

beforeAll(async () => {
  svc = await startPaidService({ routes: productRoutes });
  // Paid to the client's own wallet, so its certificate request proves control by paying.
  await seedSkycastCatalog(svc.ctx, svc.payer(0));
  client = make(0, {
    onCall: (info) => {
      calls.push(info);
      called.add(info.routeId);
    },
  });
}, 120_000);
afterAll(() => svc?.close());

describe("the typed client calls every route, paying through @x402/fetch", () => {
  it("preflight-trial, preflight, preflight-batch and forensics", async () => {
    expect(await client.preflightTrial({ url: FORECAST })).toMatchObject({
      ok: true,
      recommended_action: "pay",
      attribution: { product: "Preflight Trial by x402 Lookout" },
    });
    expect(last()).toMatchObject({ routeId: "preflight-trial", paymentSent: false, transaction: null });
    const report = await client.preflight({ url: BROKEN });
    expect(report).toMatchObject({ ok: false, recommended_action: "use_alternatives" });
    expect(last()).toMatchObject({ routeId: "preflight", paymentSent: true });
    expect(last().transaction).toMatch(/^0x[0-9a-f]{64}$/);
    const batch = await client.preflightBatch({ urls: [FORECAST, BROKEN, FORECAST] });
    expect(batch.results.map((r) => [r.url, r.ok])).toEqual([
      [FORECAST, true],
      [BROKEN, false],
    ]);
    expect(batch.paid_amount).toBe("0.025");
    const forensics = await client.forensics({ url: FORECAST });
    expect(forensics.uptime.probes_7d).toBe(168);
  });

  it("catalog/decoys, alternatives and whats-new", async () => {
    const decoys = await client.catalogDecoys();
    expect(decoys.entries.map((e) => e.url)).toEqual([BROKEN]);
    const alternatives = await client.alternatives({ url: BROKEN, limit: 2 });
    expect(alternatives.match_strategy).toBe("url_target");
    expect(alternatives.alternatives.map((a) => a.url).sort()).toEqual([SKYCAST.forecast, SKYCAST.hourly]);
    const news = await client.whatsNew({ limit: 10 });
    expect(news).toMatchObject({ limit: 10, summary: { current_active_endpoints: 3 } });
  });

  it("watch, its status and unsubscribe (with the secret)", async () => {
    const watch = await client.watch({ url: FORECAST, webhookUrl: HOOK, signals: ["dead"] });
    expect(watch).toMatchObject({ url: FORECAST, alertsRemaining: 100, signals: ["dead"] });
    expect(await client.watchStatus({ id: watch.watchId, secret: watch.secret })).toMatchObject({ watchId: watch.watchId, state: "active" });
    expect(await client.watchUnsubscribe({ id: watch.watchId, secret: watch.secret })).toMatchObject({ state: "unsubscribed" });
    const wrongSecret = await failure(client.watchStatus({ id: watch.watchId, secret: "0".repeat(64) }));
    expect(wrongSecret).toBeInstanceOf(NotFoundError);
    expect(wrongSecret.code).toBe("watch_not_found");
  });

  it("verified and its status", async () => {
    const cert = await client.verified({ url: SKYCAST.healthyPattern, name: "Skycast" });
    expect(cert).toMatchObject({ verified: true, tier: "verified", listings_covered: 2 });
    expect(await client.verifiedStatus({ certId: cert.certId })).toMatchObject({ certId: cert.certId, state: "verified" });
  });

  it("delivery-check: a paid check's signed evidence, free", async () => {
    const id = await insertDeliveryCheck(svc.ctx, SKYCAST.forecast);
    expect(await client.deliveryCheck({ id })).toMatchObject({ id, outcome: "delivered", paid_usdc: "0.001" });
  });

  it("outcomes: a payer's signed report of its settlement is accepted, a forged one refused; free", async () => {
    const key = svc.devnet.demoAccounts[1]!.privateKey;
    const { tx } = await settleOnChain(svc.devnet, key, svc.payer(0), 2000n);
    await catchUp(devnetIndexer(svc.ctx, svc.devnet));
    const report = await signedReport(key, { url: FORECAST, tx, outcome: "delivered", issued_at: Math.floor(svc.ctx.clock.now().getTime() / 1000) });
    const forged = await client.reportOutcome({ ...report, payer: svc.payer(0) }).catch((e: unknown) => e as LookoutError);
    expect(forged).toMatchObject({ status: 422, code: "signature_invalid" });
    expect(await client.reportOutcome(report)).toMatchObject({ outcome: "delivered", tx: tx.toLowerCase(), amount_usdc: "0.002" });
  });

  it("delist-feed (5 USDC) and delist-feed-diff", async () => {
    const before = await svc.balanceOf(svc.payer(0));
    const snapshot = await client.delistFeed({ scope: "critical" });
    expect(snapshot).toMatchObject({ mode: "snapshot", scope: "critical" });
    expect(snapshot.should_delist.map((f) => f.url)).toEqual([BROKEN]);
    expect(before - (await svc.balanceOf(svc.payer(0)))).toBe(5_000_000n);
    expect(await client.delistFeedDiff({ scope: "all" })).toMatchObject({ mode: "diff", scope: "all" });
  });

  it("verdict-snapshot (0.25 USDC) and verdict-deltas", async () => {
    const snapshot = await client.verdictSnapshot();
    expect(snapshot.entries.map((e) => e.url)).toContain(BROKEN);
    expect(snapshot.count).toBe(snapshot.entries.length);
    const deltas = await client.verdictDeltas({ since: snapshot.seq });
    expect(deltas).toMatchObject({ since: snapshot.seq, truncated: false });
    expect(deltas.seq).toBeGreaterThanOrEqual(snapshot.seq);
  });

  it("credits and credits status", async () => {
    const bundle = await client.credits();
    expect(bundle).toMatchObject({ balance: 1000, initialBalance: 1000, paidAmount: "0.5", payerAddress: svc.payer(0) });
    expect(await client.creditsStatus({ id: bundle.creditId })).toMatchObject({ creditId: bundle.creditId, balance: 1000, used: 0, expired: false });
  });

  it("has called every route", () => {
    expect([...called].sort()).toEqual(
      Object.values(routeContracts)
        .map((c) => c.id)
        .sort(),
    );
  });
});

describe("the credit bundle", () => {
  const sentCredit: Array<string | null> = [];
  const spy: typeof fetch = (input, init) => {
    const req = new Request(input, init);
    // The client also fetches the verdict keys once through its transport; only API calls count here.
    if (req.url.endsWith("/.well-known/jwks.json")) return fetch(req);
    if (!req.headers.has("payment-signature")) sentCredit.push(req.headers.get("x-credit-id"));
    return fetch(req);
  };
  const setCredit = (id: string, values: { balance?: number; expires_at?: Date }) =>
    svc.ctx.db.db.updateTable("credits").set(values).where("id", "=", id).execute();

  it("pays preflight while it lasts, then falls back to per-call payment and stops presenting it", async () => {
    const { creditId } = await client.credits();
    const infos: CallInfo[] = [];
    const agent = make(1, { creditId, fetch: spy, onCall: (i) => infos.push(i) });
    const before = await svc.balanceOf(svc.payer(1));
    await agent.preflight({ url: FORECAST });
    expect(infos[0]).toMatchObject({ paymentSent: false, creditBalance: 999 });
    expect(agent.credit).toMatchObject({ creditId, balance: 999, usable: true });
    expect(await svc.balanceOf(svc.payer(1))).toBe(before);

    await setCredit(creditId, { balance: 0 });
    await agent.preflight({ url: FORECAST });
    expect(infos[1]).toMatchObject({ paymentSent: true, creditBalance: null });
    expect(agent.credit?.usable).toBe(false);
    await agent.preflight({ url: FORECAST });
    expect(before - (await svc.balanceOf(svc.payer(1)))).toBe(2_000n);
    expect(sentCredit).toEqual([creditId, creditId, null]);
  });

  it("falls back when it has expired", async () => {
    const { creditId } = await client.credits();
    await setCredit(creditId, { expires_at: new Date(svc.ctx.clock.now().getTime() - 1000) });
    const infos: CallInfo[] = [];
    const agent = make(1, { creditId, onCall: (i) => infos.push(i) });
    await agent.preflight({ url: FORECAST });
    expect(infos[0]!.paymentSent).toBe(true);
    expect(agent.credit?.usable).toBe(false);
    expect(await client.creditsStatus({ id: creditId })).toMatchObject({ expired: true, used: 0 });
  });
});

describe("typed errors from the live service", () => {
  it("400 and 413 before any payment", async () => {
    const before = await svc.balanceOf(svc.payer(0));
    const bad = await failure(client.preflight({ url: "ftp://wx.example/x" }));
    expect(bad).toBeInstanceOf(BadRequestError);
    expect(bad.message).toMatch(/url: must be an absolute http or https URL/);
    const big = await failure(client.preflightBatch({ urls: Array.from({ length: 51 }, (_, i) => `https://wx.example/${i}`) }));
    expect(big).toBeInstanceOf(PayloadTooLargeError);
    for (const e of [bad, big]) expect([e.paymentSent, e.paymentSettled, e.retryable]).toEqual([false, false, false]);
    expect(await svc.balanceOf(svc.payer(0))).toBe(before);
  });

  it("402 without a signer, and no payment above the route's own price", async () => {
    const unpaid = await failure(createLookoutClient({ baseUrl: svc.url }).forensics({ url: FORECAST }));
    expect(unpaid).toBeInstanceOf(PaymentRequiredError);
    expect(unpaid.body).toMatchObject({ x402Version: 2, accepts: [{ amount: "1000" }] });
    // A transport that sends preflight calls to a 0.005 USDC route: the challenge asks 5x the price.
    const misrouted: typeof fetch = (input, init) => {
      const req = new Request(input, init);
      return fetch(new Request(req.url.replace("/preflight", "/alternatives"), req));
    };
    const refused = await failure(make(0, { fetch: misrouted }).preflight({ url: FORECAST }));
    expect(refused).toBeInstanceOf(PaymentError);
    expect([refused.code, refused.paymentSent]).toEqual(["payment_refused", false]);
  });

  it("404 for an unknown credit, 409 with the bundle for a reused payment", async () => {
    expect(await failure(client.creditsStatus({ id: randomUUID() }))).toBeInstanceOf(NotFoundError);
    let first: string | null = null;
    const replaying: typeof fetch = (input, init) => {
      const req = new Request(input, init);
      const signature = req.headers.get("payment-signature");
      if (signature && first) req.headers.set("payment-signature", first);
      else if (signature) first = signature;
      return fetch(req);
    };
    const replayer = make(2, { fetch: replaying });
    const bundle = await replayer.credits();
    const again = await failure(replayer.credits());
    expect(again).toBeInstanceOf(CreditAlreadyMintedError);
    expect((again as CreditAlreadyMintedError).credit).toMatchObject({ creditId: bundle.creditId });
  });

  it("422 with the failed criteria, unsettled", async () => {
    const before = await svc.balanceOf(svc.payer(0));
    const err = await failure(client.verified({ url: SKYCAST.wholeHost, name: "Skycast all" }));
    expect(err).toBeInstanceOf(NotVerifiedError);
    expect((err as NotVerifiedError).failedCriteria.map((c) => c.id)).toContain("uptime_7d");
    expect([err.paymentSent, err.paymentSettled]).toEqual([true, false]);
    expect(await svc.balanceOf(svc.payer(0))).toBe(before);
  });

  it("429 past the trial limit, with when to retry", async () => {
    const trial = () => client.preflightTrial({ url: SKYCAST.hourly });
    let err: LookoutError | undefined;
    for (let i = 0; i < 12 && !err; i++)
      err = await trial().then(
        () => undefined,
        (e: LookoutError) => e,
      );
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterSeconds).toBeGreaterThan(0);
    expect(err!.retryable).toBe(true);
  });

  it("503 says the payment was not settled, so the call may be retried", async () => {
    const before = await svc.balanceOf(svc.payer(0));
    await svc.ctx.db.close();
    const err = await failure(client.preflightBatch({ urls: [FORECAST] }));
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect([err.paymentSent, err.paymentSettled, err.retryable]).toEqual([true, false, true]);
    expect((err as ServiceUnavailableError).retryAfterSeconds).toBe(30);
    expect(await svc.balanceOf(svc.payer(0))).toBe(before);
  });
});
