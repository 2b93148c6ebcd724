import { defineContract } from "../contract.js";
import { DELIST_LIMITS as DELIST } from "./limits.js";
import { DelistFeedBody, DelistSnapshotSchema } from "./schemas.js";

export const RECOVERED = {
  url: "https://weather.example/v1/hourly",
  method: "GET",
  was_reasons: ["dead", "dead_7d"],
  flagged_until: "2026-11-19T00:00:00.000Z",
  uptime_48h_pct: 98,
};

export const SNAPSHOT_EXAMPLE = {
  generated_at: "2026-11-20T12:00:00.000Z",
  mode: "snapshot" as const,
  scope: "all" as const,
  counts: {
    should_delist: 2,
    newly_flagged: 1,
    recovered: 1,
    ghost_listings: 1,
    by_reason: { decoy_price_extreme: 1, zombie: 0, dead_7d: 0, mostly_dead: 0, ghost_listing: 1 },
    by_added_reason: { dead: 0, pay_to_mismatch: 0, paid_no_delivery: 0 },
  },
  truncated: false,
  limit: 2000,
  should_delist: [
    {
      url: "https://premium-signals.example/api/alpha",
      method: "POST",
      reasons: ["decoy_price_extreme"],
      first_flagged_at: "2026-11-14T08:10:00.000Z",
      confidence: "high" as const,
      flagged_days_consecutive: 7,
      uptime_7d_pct: 100,
      cdp_listed: true,
      cdp_l30d_calls: 0,
      chain: { settled_calls_30d: 0, distinct_payers_30d: 0, last_settled_at: null, self_dealing: false },
    },
    {
      url: "https://weather.example/v1/history",
      method: "GET",
      reasons: ["ghost_listing"],
      first_flagged_at: "2026-11-20T06:00:00.000Z",
      confidence: "low" as const,
      flagged_days_consecutive: 1,
      uptime_7d_pct: 99,
      cdp_listed: true,
      cdp_l30d_calls: 0,
      chain: { settled_calls_30d: 0, distinct_payers_30d: 0, last_settled_at: null, self_dealing: false },
    },
  ],
  recovered: [RECOVERED],
};

export const delistFeedContract = defineContract({
  id: "delist-feed",
  method: "post",
  path: "/api/v1/delist-feed",
  price: "5",
  title: "Delist feed (snapshot)",
  summary: "Every catalog listing an operator should delist now, with its flag history, and those that recovered this week.",
  description: [
    "An operator-facing catalog-hygiene feed, not a per-payment check. A listing is flagged while it is dead, a zombie, a decoy (1000 USDC or more), dead for 7 days or mostly dead (the critical scope), or a ghost listing: alive and not paid once in 30 days, by the chain's word where its payTo is indexed (listed 7 days or more; decision 0052), else by the catalog's (listed 30 days or more) (the ghost scope).",
    `Flags are recorded once per UTC day per listing; flagged_days_consecutive counts consecutive flagged days up to today from that history, and confidence is high from ${DELIST.highConfidenceDays} consecutive days, else low. A listing flagged in the last 7 days is recovered once no reason holds and its 48-hour uptime is at least ${DELIST.recoveredUptime48hPct}%.`,
    "Take this snapshot once, then poll POST /api/v1/delist-feed-diff (1 USDC) for the changes; the diff looks back at most 48 hours. cdp_listed says whether CDP's own catalog (a source on api.cdp.coinbase.com) lists the listing now; cdp_l30d_calls is the catalog's 30-day call count, else the chain's settled calls (0 when unknown); chain is what the chain shows of the listing's use.",
  ].join("\n\n"),
  body: DelistFeedBody,
  bodyOptional: true,
  response: DelistSnapshotSchema,
  errors: [
    { status: 400, when: `scope not critical, ghost or all; limit outside ${DELIST.limit.min}..${DELIST.limit.max}` },
    { status: 503, when: "the database timed out; nothing was settled" },
  ],
  examples: { request: { scope: "all", limit: 2000 }, response: SNAPSHOT_EXAMPLE },
});
