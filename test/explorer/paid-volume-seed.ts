import type { SettlementSummary } from "../../src/services/chain-index/summary.js";
import { refreshDeliverySummaries } from "../../src/services/delivery/index.js";
import { MINUTE } from "../../src/services/signals/constants.js";
import type { TestContext } from "../helpers/context.js";

/** A settlements summary as the indexer stores it (decision 0052): 17 calls in 30 days, 4 of them today. */
export function settlementsFixture(now: Date): SettlementSummary {
  return {
    attribution: "amount",
    calls_24h: 4,
    calls_7d: 9,
    calls_30d: 17,
    volume_usdc_24h: "0.004",
    volume_usdc_7d: "0.009",
    volume_usdc_30d: "0.017",
    distinct_payers_30d: 5,
    first_settled_at: now.toISOString(),
    last_settled_at: now.toISOString(),
    known_facilitator_share: 0.8,
    pay_to: {
      address: "0x" + "ab".repeat(20),
      calls_30d: 20,
      volume_usdc_30d: "0.02",
      distinct_payers_30d: 6,
      unattributed_calls_30d: 1,
      listings: 2,
      hosts: 1,
    },
    self_dealing: false,
    used_30d: true,
    ghost_after: now.toISOString(),
    daily: [{ day: now.toISOString().slice(0, 10), calls: 4, volume_usdc: "0.004" }],
    indexed_from_block: "1",
    indexed_to_block: "900",
  };
}

/**
 * Chain evidence on one listing, written where the indexer and the outcomes route write it: the
 * summary on its snapshot, and one payer's accepted report of a failed delivery whose detail
 * carries markup (the page must escape it), summed up like the delivery job does.
 */
export async function seedPaidEvidence(ctx: TestContext, listingId: number): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.db
    .updateTable("signal_snapshots")
    .set({ settlements: settlementsFixture(now) })
    .where("listing_id", "=", listingId)
    .execute();
  const at = new Date(now.getTime() - MINUTE);
  await ctx.db.db
    .insertInto("outcome_reports")
    .values({
      id: "or_" + "a".repeat(26),
      listing_id: listingId,
      network: "eip155:84532",
      tx_hash: "0x" + "cd".repeat(32),
      log_index: 1,
      payer: "0x" + "12".repeat(20),
      outcome: "undelivered",
      detail: "<script>alert(1)</script> paid, got a 500",
      settled_at: at,
      amount_atomic: "1000",
      signature: "0x00",
      issued_at: at,
      accepted_at: at,
    })
    .execute();
  await refreshDeliverySummaries(ctx.db.db, [listingId], now);
}
