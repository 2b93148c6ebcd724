import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt } from "jose";
import { NO_DELIVERY } from "@x402-lookout/contracts/preflight/delivery";
import type { DeliveryOutcome } from "../../src/db/schema.js";
import { refreshDeliverySummaries } from "../../src/services/delivery/index.js";
import { updateVerdicts } from "../../src/services/evidence/index.js";
import { DAY, MINUTE } from "../../src/services/signals/constants.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startAlerter } from "../helpers/start-alerter.js";
import { watchOn } from "../watch/helpers/watch-fixtures.js";
import { startReceiver, type Receiver } from "../watch/helpers/receiver.js";
import { startProber, type ProberHandle } from "../helpers/start-prober.js";
import { insertListings, paymentRequiredHeader, send402, startServer, v2Challenge, type TestServer } from "../probes/helpers.js";

/**
 * Decision 0051 in every product: two healthy listings of one service, each with a settled paid
 * check stored as the checker stores it; one delivered, the other took the money and answered 500.
 */
let ctx: TestContext;
let server: TestServer;
let prober: ProberHandle;
let ids: number[];
let rx: Receiver;
const urls: string[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true", ALLOW_PRIVATE_WEBHOOKS: "true" });
  rx = await startReceiver();
  server = await startServer((req, res) => {
    req.resume();
    if (req.url === "/good" || req.url === "/takes-money") send402(res, { header: paymentRequiredHeader(v2Challenge("1000")) });
    else res.writeHead(404).end();
  });
  urls.push(`${server.url}/good`, `${server.url}/takes-money`);
  const listed = new Date(ctx.clock.now().getTime() - 10 * DAY);
  ids = await insertListings(
    ctx.db.db,
    urls.map((url) => ({ url, priceUsdc: "0.001", nextProbeAt: ctx.clock.now() })),
    listed,
  );
  await ctx.db.db
    .updateTable("listings")
    .set({ pay_to: "0x" + "1".repeat(40), price_atomic: "1000" })
    .execute();
  prober = startProber(ctx, { tickMs: 3_600_000, runAtStart: false, intervalSeconds: 300 });
  for (let i = 0; i < 8; i++) {
    await prober.runNow();
    ctx.clock.advance(5 * MINUTE);
  }
});
afterAll(async () => {
  await rx.close();
  await prober.stop();
  await server.close();
  await ctx.close();
});

async function check(listingId: number, url: string, outcome: DeliveryOutcome, reason: string | null, at: Date) {
  const id = `dc_${listingId}${outcome.replace(/_/g, "")}${at.getTime()}`.slice(0, 29).padEnd(29, "a");
  await ctx.db.db
    .insertInto("delivery_checks")
    .values({
      id,
      listing_id: listingId,
      url,
      method: "POST",
      host: new URL(url).host,
      state: "done",
      outcome,
      reason,
      spent_atomic: "1000",
      tx: "0x" + "ab".repeat(32),
      started_at: at,
      finished_at: at,
    })
    .execute();
  await refreshDeliverySummaries(ctx.db.db, [listingId], ctx.clock.now());
  await updateVerdicts(ctx.db, [listingId], ctx.clock.now());
  return id;
}

describe("the delivery evidence in every product (decision 0051)", () => {
  it("reads nothing before any check: delivery nulls, the verdict the probes give", async () => {
    const p = await ctx.services.reports.preflight(urls[1]!);
    expect(p.reason_codes).toEqual([]);
    expect(p.recommended_action).toBe("pay");
    expect(p.delivery).toEqual(NO_DELIVERY);
    expect(NO_DELIVERY).toMatchObject({ checked_at: null, outcome: null, checks_30d: 0, evidence_url: null });
  });

  it("flags a settled check that delivered nothing in preflight, batch, forensics, the signed verdict, the snapshot and a watch; a delivered one fills delivery and flags nothing", async () => {
    const now = ctx.clock.now();
    await watchOn(ctx, rx, "/pnd", urls[1]!, { signals: ["paid_no_delivery"] });
    const alerter = startAlerter(ctx, { tickMs: 3_600_000 });
    await alerter.runNow(); // never checked: the watch reads unknown, no alert
    await check(ids[0]!, urls[0]!, "delivered", null, new Date(now.getTime() - MINUTE));
    const bad = await check(ids[1]!, urls[1]!, "undelivered", "status_500", new Date(now.getTime() - MINUTE));
    const { reports, verdictFeed } = ctx.services;
    const [good, p, batch, f, snap] = await Promise.all([
      reports.preflight(urls[0]!),
      reports.preflight(urls[1]!),
      reports.batch([urls[1]!]),
      reports.forensics(urls[1]!),
      verdictFeed.snapshot(),
    ]);
    expect(good.reason_codes).not.toContain("paid_no_delivery");
    expect(good.delivery).toMatchObject({ outcome: "delivered", paid_usdc: "0.001", checks_30d: 1, delivered_30d: 1 });
    for (const r of [p, batch.results[0]!, f]) {
      expect(r.reason_codes).toContain("paid_no_delivery");
      expect(r.ok).toBe(false);
      expect(r.delivery).toMatchObject({
        outcome: "undelivered",
        checks_30d: 1,
        delivered_30d: 0,
        last_delivered_at: null,
        evidence_url: `http://lookout.test/api/v1/delivery-checks/${bad}`,
      });
    }
    expect(p.warnings).not.toContain("paid_no_delivery"); // an addition: reason_codes only (decision 0045)
    expect(f.delivery.recent).toEqual([expect.objectContaining({ id: bad, outcome: "undelivered", reason: "status_500", paid_usdc: "0.001" })]);
    expect((decodeJwt(p.signature) as { reason_codes: string[] }).reason_codes).toContain("paid_no_delivery");
    expect(snap.entries.find((e) => e.url === urls[1])!.reason_codes).toContain("paid_no_delivery");
    await alerter.runNow();
    await alerter.stop();
    expect(rx.on("/pnd").map((r) => [r.verified, r.payload.signal, r.payload.state ?? r.payload.event])).toEqual([
      [true, "paid_no_delivery", expect.anything()],
    ]);
  });

  it("clears on a later delivered check; invalid_output is a warning that leaves ok", async () => {
    const now = ctx.clock.now();
    await check(ids[1]!, urls[1]!, "delivered", null, now);
    expect((await ctx.services.reports.preflight(urls[1]!)).reason_codes).not.toContain("paid_no_delivery");
    ctx.clock.advance(MINUTE);
    await check(ids[1]!, urls[1]!, "invalid_output", "schema", ctx.clock.now());
    const p = await ctx.services.reports.preflight(urls[1]!);
    expect(p.reason_codes).toContain("invalid_output");
    expect(p).toMatchObject({ ok: true, recommended_action: "investigate" });
    expect(p.delivery).toMatchObject({ outcome: "invalid_output", checks_30d: 3, delivered_30d: 1 });
  });

  it("forgets a flag 7 days after its check", async () => {
    await check(ids[0]!, urls[0]!, "refused_after_payment", "status_401", ctx.clock.now());
    expect((await ctx.services.reports.preflight(urls[0]!)).reason_codes).toContain("paid_no_delivery");
    ctx.clock.advance(7 * DAY + MINUTE);
    await updateVerdicts(ctx.db, [ids[0]!], ctx.clock.now());
    expect((await ctx.services.reports.forensics(urls[0]!)).reason_codes).not.toContain("paid_no_delivery");
  });
});
