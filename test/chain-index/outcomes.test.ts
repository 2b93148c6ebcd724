import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { privateKeyToAccount } from "viem/accounts";
import type { Hex } from "viem";
import type { ReportedOutcome } from "@x402-lookout/contracts/outcomes/typed-data";
import type { Devnet } from "../../src/chain/devnet.js";
import { createApp, type App } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { DAY } from "../../src/services/signals/constants.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { body } from "../helpers/http.js";
import { signedReport } from "../helpers/outcome-report.js";
import { settleOnChain } from "../helpers/settle-on-chain.js";
import { acquireDevnet } from "../helpers/shared-devnet.js";
import { catchUp, devnetIndexer, keyOf, listOnChain } from "./setup.js";

/** POST /api/v1/outcomes (decision 0052): only a payer's signed word on its own settlement counts, once. */
let ctx: TestContext;
let devnet: Devnet;
let app: App;
let listing: number;
const URL_ = "https://reported.example/q";
const payTo = "0x" + "d4".repeat(20);
const paid: Array<{ tx: Hex; nonce: Hex; key: Hex }> = [];

beforeAll(async () => {
  ctx = await createTestContext();
  ctx.clock.set(new Date());
  app = createApp({ ctx, routes: productRoutes });
  devnet = await acquireDevnet();
  [listing] = (await listOnChain(ctx, [{ url: URL_, payTo, priceUsdc: "0.001" }])) as [number];
  for (const n of [0, 1, 2]) paid.push({ ...(await settleOnChain(devnet, keyOf(devnet, n), payTo, 1000n)), key: keyOf(devnet, n) });
  await catchUp(devnetIndexer(ctx, devnet));
}, 120_000);

afterAll(async () => {
  await devnet?.stop();
  await ctx?.close();
});

interface Draft {
  url?: string;
  tx?: string;
  nonce?: string;
  outcome?: ReportedOutcome;
  detail?: string;
  issued_at?: number;
}

/** A report signed by `signer`, claiming `payer` (the signer's own address unless given). */
async function report(signer: Hex, draft: Draft, payer?: string) {
  const fields = {
    url: URL_,
    outcome: "undelivered" as ReportedOutcome,
    detail: "paid, then HTTP 500",
    issued_at: Math.floor(ctx.clock.now().getTime() / 1000),
    ...draft,
  };
  const res = await app.request("/api/v1/outcomes", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(await signedReport(signer, fields, payer)),
  });
  return { status: res.status, body: await body(res) };
}

const reports = async () => Number((await sql<{ n: string }>`select count(*) as n from outcome_reports`.execute(ctx.db.db)).rows[0]!.n);
const warnings = async () =>
  (await ctx.db.db.selectFrom("signal_snapshots").select("warnings").where("listing_id", "=", listing).executeTakeFirstOrThrow()).warnings;

describe("payers' outcome reports", () => {
  it("refuses forged, foreign, unpaid, stale and unknown reports with a clear 4xx, and changes nothing", async () => {
    const [a, b] = paid as [(typeof paid)[0], (typeof paid)[0]];
    const payerA = privateKeyToAccount(a.key).address;
    const cases = [
      // Signed by b's key, claiming a's wallet: not a's signature.
      [await report(b.key, { tx: a.tx }, payerA), 422, "signature_invalid"],
      // b signs as itself over a's settlement: b did not pay it.
      [await report(b.key, { tx: a.tx }), 422, "not_the_payer"],
      [await report(a.key, { tx: "0x" + "ee".repeat(32) }), 422, "not_paid"],
      [await report(a.key, { nonce: b.nonce }), 422, "not_the_payer"],
      [await report(a.key, { tx: a.tx, issued_at: Math.floor(ctx.clock.now().getTime() / 1000) - 3600 }), 400, "bad_request"],
      [await report(a.key, { tx: a.tx, url: "https://unlisted.example/q" }), 404, "unknown_endpoint"],
    ] as const;
    for (const [res, status, code] of cases) expect([res.status, res.body.error], JSON.stringify(res.body)).toEqual([status, code]);
    const both = await app.request("/api/v1/outcomes", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: URL_, outcome: "delivered" }),
    });
    expect(both.status).toBe(400);
    expect(await reports()).toBe(0);
  });

  it("accepts a payer's report of its own settlement once, by transaction or by nonce", async () => {
    const [a, b] = paid as [(typeof paid)[0], (typeof paid)[0]];
    const ok = await report(a.key, { tx: a.tx });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ url: URL_, outcome: "undelivered", tx: a.tx.toLowerCase(), amount_usdc: "0.001" });
    expect((await report(a.key, { tx: a.tx })).body.error).toBe("already_reported");
    expect((await report(a.key, { nonce: a.nonce, outcome: "delivered" })).status).toBe(409);
    expect(await warnings()).not.toContain("paid_no_delivery");
    expect((await report(b.key, { nonce: b.nonce, outcome: "refused_after_payment" })).status).toBe(200);
    expect(await reports()).toBe(2);
  });

  it("fires paid_no_delivery from two paying wallets, names the source, and shows the reports in forensics", async () => {
    expect(await warnings()).toContain("paid_no_delivery");
    const f = await ctx.services.reports.forensics(URL_);
    expect(f.delivery).toMatchObject({ checks_30d: 0, payer_reports_30d: 2, payer_failures_30d: 2, payers_failed_7d: 2 });
    expect(f.delivery.reports.map((r) => r.outcome).sort()).toEqual(["refused_after_payment", "undelivered"]);
    expect(f.delivery.reports[0]!.detail).toBe("paid, then HTTP 500");
  });

  it("refuses a settlement older than 7 days", async () => {
    ctx.clock.advance(8 * DAY);
    const c = paid[2]!;
    const res = await report(c.key, { tx: c.tx });
    ctx.clock.advance(-8 * DAY);
    expect([res.status, res.body.error]).toEqual([422, "settlement_too_old"]);
  });
});
