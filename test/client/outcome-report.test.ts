import { decodePaymentResponseHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookoutClient, LookoutError, lookoutPolicy, signOutcomeReport, type ReportOutcomesOptions } from "@x402-lookout/client";
import { createLocalFacilitator } from "../../src/chain/facilitator.js";
import { startDemoFleet, type DemoEndpoint, type DemoFleet } from "../../src/demo/index.js";
import { updateVerdicts } from "../../src/services/evidence/index.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { catchUp, devnetIndexer } from "../chain-index/setup.js";
import { startIngester } from "../helpers/start-ingester.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import { settleOnChain } from "../helpers/settle-on-chain.js";

/**
 * Payers' word, proven by their payment (decision 0052), from the client's side: a real payment on
 * the devnet through @x402/fetch, the service's chain indexer reading it, and the report signed by
 * the paying wallet, sent by lookoutPolicy's reportOutcomes or by hand with signOutcomeReport.
 */
let svc: PaidService;
let fleet: DemoFleet;
let indexer: ReturnType<typeof devnetIndexer>;
const AGENT = 2;
const HAND = 4;

type Report = Parameters<NonNullable<ReportOutcomesOptions["onReport"]>>[0];

const account = (n: number) => privateKeyToAccount(svc.devnet.demoAccounts[n]!.privateKey);
const endpoint = (kind: DemoEndpoint["kind"], method?: DemoEndpoint["method"]) =>
  fleet.endpoints.find((e) => e.kind === kind && (!method || e.method === method))!;
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable("accepted"),
    (e: unknown) => (expect(e).toBeInstanceOf(LookoutError), e as LookoutError),
  );
const reportsOf = (url: string) =>
  svc.ctx.db.db
    .selectFrom("outcome_reports as r")
    .innerJoin("listings as l", "l.id", "r.listing_id")
    .select(["r.payer", "r.outcome", "r.tx_hash"])
    .where("l.url", "=", url)
    .execute();

beforeAll(async () => {
  svc = await startPaidService({ routes: productRoutes, env: { ALLOW_PRIVATE_TARGETS: "true" } });
  // Reports are signed at the payer's clock, and checked within 5 minutes of the service's.
  svc.ctx.clock.set(new Date());
  fleet = await startDemoFleet({
    log: svc.ctx.log,
    facilitator: createLocalFacilitator(svc.devnet),
    network: svc.devnet.network,
    payTo: svc.devnet.demoMerchant.address,
    asset: { address: svc.devnet.usdcAddress, name: "USDC", version: "2" },
    clock: svc.ctx.clock,
  });
  const ingester = startIngester(svc.ctx, [fleet.catalogUrl]);
  await ingester.runNow();
  await ingester.stop();
  const ids = (await svc.ctx.db.db.selectFrom("listings").select("id").execute()).map((r) => Number(r.id));
  await updateVerdicts({ db: svc.ctx.db.db }, ids, svc.ctx.clock.now());
  indexer = devnetIndexer(svc.ctx, svc.devnet);
  await catchUp(indexer);
}, 180_000);

afterAll(async () => {
  await fleet?.stop();
  await svc?.close();
});

describe("lookoutPolicy's reportOutcomes, against the real service and chain", () => {
  it("reports a paid call signed by the payer once the indexer has its settlement, and a replay is refused", async () => {
    const payer = account(AGENT);
    const lookout = createLookoutClient({ baseUrl: svc.url, signer: payer });
    const target = endpoint("healthy", "GET");
    let reported!: (r: Report) => void;
    const report = new Promise<Report>((r) => (reported = r));
    const policy = lookoutPolicy({ lookout, reportOutcomes: { signer: payer, onReport: (r) => reported(r) } });
    const client = new x402Client().register(svc.devnet.network as `${string}:${string}`, new ExactEvmScheme(payer));
    client.onBeforePaymentCreation(policy);

    // The indexer as its role runs it, a tick at a time, while the report waits for it.
    let busy = false;
    const indexing = setInterval(() => {
      if (busy) return;
      busy = true;
      void indexer.tick().finally(() => (busy = false));
    }, 250);
    try {
      const res = await wrapFetchWithPayment(policy.fetch(), client)(target.url);
      // The agent's own answer, whole: the report reads a copy.
      expect(res.status).toBe(200);
      expect((await res.text()).length).toBeGreaterThan(0);
      const { transaction: tx } = decodePaymentResponseHeader(res.headers.get("payment-response")!);
      expect(await report).toEqual({ url: target.url, outcome: "delivered", status: 200 });
      expect(await reportsOf(target.url)).toEqual([{ payer: payer.address.toLowerCase(), outcome: "delivered", tx_hash: tx.toLowerCase() }]);

      // Once per settlement: the same payment reported again, by hand, is a conflict.
      const again = await signOutcomeReport(payer, { url: target.url, tx, outcome: "undelivered" });
      const conflict = await refusal(lookout.reportOutcome(again));
      expect(conflict).toMatchObject({ status: 409, code: "already_reported", paymentSent: false });
      expect(await reportsOf(target.url)).toHaveLength(1);
    } finally {
      clearInterval(indexing);
      while (busy) await new Promise((r) => setTimeout(r, 20));
    }
  }, 120_000);
});

describe("signOutcomeReport with the typed client's reportOutcome", () => {
  it("is refused until the indexer reads the settlement, then accepted by its nonce, and only from the payer", async () => {
    const payer = account(HAND);
    const lookout = createLookoutClient({ baseUrl: svc.url });
    const target = endpoint("paid_500");
    const { tx, nonce } = await settleOnChain(svc.devnet, svc.devnet.demoAccounts[HAND]!.privateKey, target.payTo, BigInt(target.amount));
    const body = await signOutcomeReport(payer, { url: target.url, nonce, outcome: "undelivered", detail: "HTTP 500 after payment" });

    expect(await refusal(lookout.reportOutcome(body))).toMatchObject({ status: 422, code: "not_paid" });
    await catchUp(indexer);
    // Signed by another wallet in the payer's name: not the payer's word.
    const forged = { ...(await signOutcomeReport(account(HAND + 1), { url: target.url, nonce, outcome: "delivered" })), payer: payer.address };
    expect(await refusal(lookout.reportOutcome(forged))).toMatchObject({ status: 422, code: "signature_invalid" });

    expect(await lookout.reportOutcome(body)).toMatchObject({
      url: target.url,
      outcome: "undelivered",
      payer: payer.address.toLowerCase(),
      tx: tx.toLowerCase(),
      amount_usdc: target.price,
    });
    expect(await refusal(lookout.reportOutcome(body))).toMatchObject({ status: 409, code: "already_reported" });
  }, 60_000);
});
