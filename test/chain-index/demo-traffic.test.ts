import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { createLocalFacilitator } from "../../src/chain/facilitator.js";
import { startDemoFleet, type DemoFleet } from "../../src/demo/index.js";
import { startDemoTraffic } from "../../src/demo/traffic/agent.js";
import { trafficTargets } from "../../src/demo/traffic/targets.js";
import { updateVerdicts } from "../../src/services/evidence/index.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { startIngester } from "../helpers/start-ingester.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import { devnetIndexer } from "./setup.js";
import { erc20Abi, parseEventLogs, recoverTypedDataAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { OUTCOME_REPORT_DOMAIN, OUTCOME_REPORT_TYPES, outcomeReportMessage } from "@x402-lookout/contracts/outcomes/typed-data";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { createLookoutClient, lookoutPolicy } from "@x402-lookout/client";

/**
 * Issue 39's demo on the devnet: the traffic agent pays the honest listings and Northwind's 500
 * from its three wallets through @x402/fetch, and every report it signs is accepted once the
 * indexer has read the settlement; two failing payers make paid_500 paid_no_delivery.
 */
let svc: PaidService;
let fleet: DemoFleet;
let indexing: NodeJS.Timeout;
const statuses: number[][] = [];

beforeAll(async () => {
  svc = await startPaidService({ routes: productRoutes, env: { ALLOW_PRIVATE_TARGETS: "true" } });
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
  // The indexer as its role runs it, a tick at a time, while the agent pays and reports.
  const indexer = devnetIndexer(svc.ctx, svc.devnet);
  let busy = false;
  indexing = setInterval(() => {
    if (busy) return;
    busy = true;
    void indexer.tick().finally(() => (busy = false));
  }, 250);
  const traffic = startDemoTraffic({
    endpoints: fleet.endpoints,
    wallets: svc.devnet.traffic.map((w) => w.privateKey),
    network: svc.devnet.network,
    serviceUrl: svc.url,
    log: svc.ctx.log,
    scheduled: false,
  });
  for (let round = 0; round < 2; round++) statuses.push(await traffic.runRound());
}, 180_000);

afterAll(async () => {
  clearInterval(indexing);
  await fleet?.stop();
  await svc?.close();
});

const listingOf = async (url: string) => Number((await svc.ctx.db.db.selectFrom("listings").select("id").where("url", "=", url).executeTakeFirstOrThrow()).id);

describe("the payment policy's opt-in reporting", () => {
  it("reports a paid call's outcome, signed by the payer, once the indexer has its settlement", async () => {
    const account = privateKeyToAccount(svc.devnet.demoAccounts[3]!.privateKey);
    const lookout = createLookoutClient({ baseUrl: svc.url, signer: account });
    const reports: Array<{ outcome: string | null; status: number | null }> = [];
    const done = new Promise<void>((resolve) => {
      const policy = lookoutPolicy({ lookout, reportOutcomes: { signer: account, onReport: (r) => (reports.push(r), resolve()) } });
      const client = new x402Client().register(svc.devnet.network as `${string}:${string}`, new ExactEvmScheme(account));
      client.onBeforePaymentCreation(policy);
      const target = fleet.endpoints.find((e) => e.kind === "healthy" && e.method === "GET")!;
      void wrapFetchWithPayment(policy.fetch(), client)(target.url).then((res) => expect(res.status).toBe(200));
    });
    await done;
    expect(reports).toEqual([{ url: expect.any(String), outcome: "delivered", status: 200 }]);
  }, 90_000);
});

describe("the demo's traffic", () => {
  it("pays every target once a round and each signed report is accepted", async () => {
    const targets = trafficTargets(fleet.endpoints);
    expect(targets.length).toBeGreaterThan(5);
    for (const round of statuses) expect(round).toEqual(targets.map(() => 200));
    const wallets = svc.devnet.traffic.map((w) => w.address.toLowerCase());
    const { rows } = await sql<{ n: string; payers: string }>`
      select count(*)::int as n, count(distinct payer)::int as payers from chain_settlements where payer = any(${wallets}::text[])`.execute(svc.ctx.db.db);
    expect(rows[0]).toEqual({ n: 2 * targets.length, payers: 3 });
  });

  it("pays each target from two wallets, a USDC transfer of its price to its payTo on chain, each report signed by the paying wallet", async () => {
    const wallets = svc.devnet.traffic.map((w) => w.address.toLowerCase());
    for (const e of trafficTargets(fleet.endpoints)) {
      const rows = (
        await svc.ctx.db.db
          .selectFrom("outcome_reports")
          .selectAll()
          .where("listing_id", "=", await listingOf(e.url))
          .execute()
      ).filter((r) => wallets.includes(r.payer));
      expect(rows, e.url).toHaveLength(2);
      expect(new Set(rows.map((r) => r.payer)).size, e.url).toBe(2);
      for (const r of rows) {
        const receipt = await svc.devnet.publicClient.getTransactionReceipt({ hash: r.tx_hash as Hex });
        const transfers = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs });
        expect(
          transfers.map((t) => ({ token: t.address.toLowerCase(), from: t.args.from.toLowerCase(), to: t.args.to.toLowerCase(), value: t.args.value })),
          e.url,
        ).toEqual([{ token: svc.devnet.usdcAddress.toLowerCase(), from: r.payer, to: e.payTo.toLowerCase(), value: BigInt(e.amount) }]);
        const message = outcomeReportMessage({
          url: e.url,
          tx: r.tx_hash,
          outcome: r.outcome,
          detail: r.detail,
          issued_at: Math.floor(new Date(r.issued_at).getTime() / 1000),
        });
        const signer = await recoverTypedDataAddress({
          domain: OUTCOME_REPORT_DOMAIN,
          types: OUTCOME_REPORT_TYPES,
          primaryType: "OutcomeReport",
          message,
          signature: r.signature as Hex,
        });
        expect(signer.toLowerCase(), e.url).toBe(r.payer);
        expect(r.outcome, e.url).toBe(e.kind === "paid_500" ? "undelivered" : "delivered");
      }
    }
  });

  it("never pays a ghost, a trap or a decoy", async () => {
    const unpaid = fleet.endpoints.filter((e) => ["ghost", "never_paid", "decoy", "cloaked_quote"].includes(e.kind));
    for (const e of unpaid) {
      const reports = await svc.ctx.db.db
        .selectFrom("outcome_reports")
        .select("id")
        .where("listing_id", "=", await listingOf(e.url))
        .execute();
      expect(reports, e.url).toEqual([]);
    }
  });

  it("makes Northwind's 500 paid_no_delivery from two paying wallets' reports", async () => {
    const e = fleet.endpoints.find((x) => x.kind === "paid_500")!;
    const id = await listingOf(e.url);
    const snapshot = await svc.ctx.db.db.selectFrom("signal_snapshots").select(["warnings", "delivery"]).where("listing_id", "=", id).executeTakeFirstOrThrow();
    expect(snapshot.warnings).toContain("paid_no_delivery");
    expect(snapshot.delivery).toMatchObject({ payers: { reports_30d: 2, failures_30d: 2, failed_payers_7d: 2 } });
  });
});
