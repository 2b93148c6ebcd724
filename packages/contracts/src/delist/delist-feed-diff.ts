import { defineContract } from "../contract.js";
import { RECOVERED } from "./delist-feed.js";
import { DelistDiffBody, DelistDiffSchema } from "./schemas.js";

export const DIFF_EXAMPLE = {
  generated_at: "2026-11-20T12:00:00.000Z",
  mode: "diff" as const,
  scope: "all" as const,
  window: { since: "2026-11-19T12:00:00.000Z", until: "2026-11-20T12:00:00.000Z" },
  counts: { should_delist: 1, newly_flagged: 1, recovered: 1, ghost_listings: 1 },
  truncated: false,
  limit: 2000,
  should_delist: [
    {
      url: "https://weather.example/v1/history",
      method: "GET",
      reasons: ["ghost_listing"],
      first_flagged_at: "2026-11-20T06:00:00.000Z",
      confidence: "low" as const,
    },
  ],
  recovered: [RECOVERED],
};

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
  examples: { request: { since: "2026-11-19T12:00:00Z", scope: "all" }, response: DIFF_EXAMPLE },
});
