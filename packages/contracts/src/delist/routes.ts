import { defineContract } from "../contract.js";
import { DELIST_LIMITS as DELIST } from "./limits.js";
import { DelistDiffBody, DelistDiffSchema, DelistFeedBody, DelistSnapshotSchema } from "./schemas.js";

export const delistFeedContract = defineContract({
  id: "delist-feed",
  method: "post",
  path: "/api/v1/delist-feed",
  price: "5",
  title: "Delist feed (snapshot)",
  summary: "Every catalog listing an operator should delist now, with its flag history, and those that recovered this week.",
  description: [
    "An operator-facing catalog-hygiene feed, not a per-payment check. A listing is flagged while it is dead, a zombie, a decoy (1000 USDC or more), dead for 7 days or mostly dead (the critical scope), or a ghost listing: alive, listed 30 days or more, and not called once in 30 days (the ghost scope).",
    `Flags are recorded once per UTC day per listing; flagged_days_consecutive counts consecutive flagged days up to today from that history, and confidence is high from ${DELIST.highConfidenceDays} consecutive days, else low. A listing flagged in the last 7 days is recovered once no reason holds and its 48-hour uptime is at least ${DELIST.recoveredUptime48hPct}%.`,
    "Take this snapshot once, then poll POST /api/v1/delist-feed-diff (1 USDC) for the changes; the diff looks back at most 48 hours. cdp_listed says whether CDP's own catalog (a source on api.cdp.coinbase.com) lists the listing now; cdp_l30d_calls is the catalog's 30-day call count (0 when unknown).",
  ].join("\n\n"),
  body: DelistFeedBody,
  bodyOptional: true,
  response: DelistSnapshotSchema,
  errors: [
    { status: 400, when: `scope not critical, ghost or all; limit outside ${DELIST.limit.min}..${DELIST.limit.max}` },
    { status: 503, when: "the database timed out; nothing was settled" },
  ],
});

export const delistFeedDiffContract = defineContract({
  id: "delist-feed-diff",
  method: "post",
  path: "/api/v1/delist-feed-diff",
  price: "1",
  title: "Delist feed (diff)",
  summary: "Listings newly flagged for delisting, and listings recovered, since a moment at most 48 hours back.",
  description: [
    "should_delist holds the listings whose current flag streak began after `since`; recovered holds the listings that were flagged on or after `since` and have recovered (no reason holds, 48-hour uptime of at least 95%). The rules are those of POST /api/v1/delist-feed.",
    "`since` defaults to now minus 24 hours. A `since` older than 48 hours is refused with 400 before payment: re-baseline with a full snapshot from POST /api/v1/delist-feed, then poll the diff with the snapshot's generated_at.",
  ].join("\n\n"),
  body: DelistDiffBody,
  bodyOptional: true,
  response: DelistDiffSchema,
  errors: [
    { status: 400, when: "since invalid, in the future, or older than 48 hours (take a full snapshot first); scope or limit invalid" },
    { status: 503, when: "the database timed out; nothing was settled" },
  ],
});
