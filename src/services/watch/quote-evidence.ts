import type { JsonObject } from "../../db/schema.js";
import { THRESHOLDS as T } from "../signals/constants.js";
import type { SignalInput } from "../signals/engine.js";

const live = (s: SignalInput) => s.observedQuote?.live ?? null;
const listed = (s: SignalInput) => s.listedQuote;

/** The terms each quote-integrity signal compared, for alerts (see evidence.ts). */
export const QUOTE_EVIDENCE = {
  pay_to_mismatch: (s: SignalInput): JsonObject => ({ live_pay_to: live(s)?.payTo ?? null, listed_pay_to: listed(s)?.payTo ?? null }),
  pay_to_changed: (s: SignalInput): JsonObject => ({ pay_tos_7d: s.observedQuote?.payTos7d ?? 0, seen: s.observedQuote?.seen.pay_to ?? [] }),
  asset_not_usdc: (s: SignalInput): JsonObject => ({
    network: live(s)?.network ?? listed(s)?.network ?? null,
    asset: live(s)?.asset ?? listed(s)?.asset ?? null,
  }),
  network_mismatch: (s: SignalInput): JsonObject => ({ live_network: live(s)?.network ?? null, listed_network: listed(s)?.network ?? null }),
  price_mismatch: (s: SignalInput): JsonObject => ({ live_amount: live(s)?.amount ?? null, listed_amount: listed(s)?.amount ?? null }),
  price_switch: (s: SignalInput): JsonObject => ({
    live_amount: live(s)?.amount ?? null,
    lowest_amount_24h: s.observedQuote?.lowestAmount24h ?? null,
    min_ratio: T.priceSwitchRatio,
  }),
  cloaking: (s: SignalInput): JsonObject => ({ profiles_disagree: s.observedQuote?.profilesDisagree ?? false }),
  source_disagrees: (s: SignalInput): JsonObject => ({
    live_pay_to: live(s)?.payTo ?? null,
    sources: (s.observedQuote?.catalog?.disagreeing ?? []) as unknown as JsonObject[],
  }),
  malformed_quote: (s: SignalInput): JsonObject => ({ malformed: live(s)?.malformed ?? null, signed_amount: live(s)?.amount ?? null }),
};
