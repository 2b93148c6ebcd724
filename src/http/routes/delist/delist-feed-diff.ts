import { z } from "@hono/zod-openapi";
import { DELIST } from "../../../services/delist/constants.js";
import { delistDiff } from "../../../services/delist/feed.js";
import { badRequest } from "../../errors.js";
import { defineRoute } from "../../registry.js";
import { DIFF_EXAMPLE } from "./examples.js";
import { DelistDiffSchema, LimitField, ScopeField } from "./schemas.js";

export const TOO_OLD_MESSAGE = "since is older than 48 hours: take a full snapshot with POST /api/v1/delist-feed first, then poll the diff";

export const delistFeedDiffRoute = defineRoute({
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
  body: z.object({
    since: z
      .string({ error: "since must be an ISO 8601 date-time string" })
      .datetime({ offset: true, error: "since must be an ISO 8601 date-time such as 2026-11-20T12:00:00Z" })
      .optional()
      .describe("default: now minus 24 hours; at most 48 hours back; not in the future"),
    scope: ScopeField,
    limit: LimitField,
  }),
  bodyOptional: true,
  response: DelistDiffSchema,
  examples: { request: { since: "2026-11-19T12:00:00Z", scope: "all" }, response: DIFF_EXAMPLE },
  errors: [
    { status: 400, when: "since invalid, in the future, or older than 48 hours (take a full snapshot first); scope or limit invalid" },
    { status: 503, when: "the database timed out; nothing was settled" },
  ],
  check: ({ body }, app) => {
    if (!body.since) return;
    const since = Date.parse(body.since);
    const now = app.clock.now().getTime();
    if (since < now - DELIST.diffMaxWindowMs) throw badRequest(TOO_OLD_MESSAGE);
    if (since > now + DELIST.clockSkewMs) throw badRequest("since: must not be in the future");
  },
  handler: async ({ body }, { app }) => {
    const now = app.clock.now();
    const since = body.since ? new Date(Math.min(Date.parse(body.since), now.getTime())) : new Date(now.getTime() - DELIST.diffDefaultWindowMs);
    return delistDiff(app, { since, scope: body.scope, limit: body.limit });
  },
});
