import { z } from "@hono/zod-openapi";
import { DELIST } from "../../../services/delist/constants.js";
import { delistSnapshot } from "../../../services/delist/feed.js";
import { defineRoute } from "../../registry.js";
import { SNAPSHOT_EXAMPLE } from "./examples.js";
import { DelistSnapshotSchema, LimitField, ScopeField } from "./schemas.js";

export const delistFeedRoute = defineRoute({
  id: "delist-feed",
  method: "post",
  path: "/api/v1/delist-feed",
  price: "5",
  title: "Delist feed (snapshot)",
  summary: "Every catalog listing an operator should delist now, with its flag history, and those that recovered this week.",
  description: [
    "An operator-facing catalog-hygiene feed, not a per-payment check. A listing is flagged while it is dead, a zombie, a decoy (1000 USDC or more), dead for 7 days or mostly dead (the critical scope), or a ghost listing: alive, listed 30 days or more, and not called once in 30 days (the ghost scope).",
    `Flags are recorded once per UTC day per listing; flagged_days_consecutive counts consecutive flagged days up to today from that history, and confidence is high from ${DELIST.highConfidenceDays} consecutive days, else low. A listing flagged in the last 7 days is recovered once no reason holds and its 48-hour uptime is at least ${DELIST.recoveredUptime48hPct}%.`,
    "Take this snapshot once, then poll POST /api/v1/delist-feed-diff (1 USDC) for the changes; the diff looks back at most 48 hours. cdp_listed and cdp_l30d_calls come from the catalog's own listing and usage data.",
  ].join("\n\n"),
  body: z.object({ scope: ScopeField, limit: LimitField }),
  bodyOptional: true,
  response: DelistSnapshotSchema,
  examples: { request: { scope: "all", limit: 2000 }, response: SNAPSHOT_EXAMPLE },
  errors: [
    { status: 400, when: `scope not critical, ghost or all; limit outside ${DELIST.limit.min}..${DELIST.limit.max}` },
    { status: 503, when: "the database timed out; nothing was settled" },
  ],
  handler: ({ body }, { app }) => delistSnapshot(app, { scope: body.scope, limit: body.limit }),
});
