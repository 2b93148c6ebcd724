import { isDeepStrictEqual } from "node:util";
import { usdcDecimal } from "../../lib/money.js";
import { currentPrice, type ListingRow, type ObservedQuote, type SignalContext, signalInput } from "../signals/index.js";
import { firedOf, viewOf, type StoredVerdict } from "./verdict.js";

/** What the offline guard keeps of a listing (signal_snapshots.feed, migration 0020); url, method and seq come from elsewhere. */
export interface FeedEntry {
  ok: boolean;
  action: string;
  warnings: string[];
  /** Every code of the preflight view (decision 0045); an entry stored before it has none, and its warnings held them all. */
  reason_codes?: string[];
  pay_to: string | null;
  asset: string | null;
  network: string | null;
  amount: string | null;
  price_usdc: string | null;
}

/** A row as the verdict writer reads it: its stored entry, and whether a tombstone is newer than it (listed again). */
export interface FeedState {
  feed: FeedEntry | null;
  feed_removed: boolean | null;
}

/**
 * The entry of a listing whose stored verdict is `stored`: what preflight answers for it (the same
 * firedOf and viewOf as preflightReport), and the terms the prober prices it by: the newest
 * challenge's quote, else the listed source's (decision 0032), never merely the newest sighting.
 */
export function feedEntryOf(row: ListingRow, context: SignalContext | null, stored: StoredVerdict, now: Date): FeedEntry {
  const input = signalInput(row, context);
  const view = viewOf(firedOf(input, stored, now), input, "preflight");
  const live = (row.detail as { quote?: ObservedQuote | null } | null)?.quote?.live ?? null;
  const terms = live
    ? { pay_to: live.payTo, asset: live.asset, network: live.network, amount: live.amount }
    : {
        pay_to: input.listedQuote?.payTo ?? null,
        asset: input.listedQuote?.asset ?? null,
        network: input.listedQuote?.network ?? null,
        amount: input.listedQuote?.amount ?? null,
      };
  return {
    ok: view.ok,
    action: view.recommended_action,
    warnings: [...view.warnings],
    reason_codes: [...view.reason_codes],
    ...terms,
    price_usdc: usdcDecimal(currentPrice(row)),
  };
}

/** Whether the stored entry still holds: the same entry, and no tombstone since it was numbered. */
export const sameFeed = (state: FeedState, entry: FeedEntry): boolean => state.feed_removed !== true && isDeepStrictEqual(state.feed, entry);
