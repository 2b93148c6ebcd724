/**
 * A listing's settlements as the chain shows them (decision 0052), stored on its snapshot
 * (signal_snapshots.settlements) by the indexer. Attribution: a payTo with one listing gives it
 * every settlement; a shared payTo gives a listing the settlements of its price when no other
 * listing there has that price (`amount`); listings that share a price share its settlements, and
 * listings with no price share what no price explains (`pay_to`). Wallets of this service (the
 * paid checker) never count.
 */
export interface SettlementSummary {
  attribution: "listing" | "amount" | "pay_to";
  calls_24h: number;
  calls_7d: number;
  calls_30d: number;
  volume_usdc_24h: string;
  volume_usdc_7d: string;
  volume_usdc_30d: string;
  distinct_payers_30d: number;
  first_settled_at: string | null;
  last_settled_at: string | null;
  /** Of the 30 days' settlements, the share sent by a known facilitator's signer; null without any. */
  known_facilitator_share: number | null;
  pay_to: {
    address: string;
    calls_30d: number;
    volume_usdc_30d: string;
    distinct_payers_30d: number;
    /** Settlements no listing's price explains. */
    unattributed_calls_30d: number;
    listings: number;
    hosts: number;
  };
  /** The payTo's only payers are itself, or one wallet paying it again and again: its settlements are not use. */
  self_dealing: boolean;
  /** Someone other than the payTo, one repeat wallet or this service paid it in 30 days. */
  used_30d: boolean;
  /** When a listing this unused becomes a ghost: listed GHOST_MIN_LISTED_HOURS. */
  ghost_after: string;
  /** Per UTC day with settlements, oldest first. */
  daily: Array<{ day: string; calls: number; volume_usdc: string }>;
  indexed_from_block: string;
  indexed_to_block: string;
}

/** The summary a report row carries (null: not indexed, or its payTo's backfill is still running). */
export const settlementsOf = (row: { settlements?: unknown }): SettlementSummary | null =>
  row.settlements && typeof row.settlements === "object" && "calls_30d" in row.settlements ? (row.settlements as SettlementSummary) : null;
