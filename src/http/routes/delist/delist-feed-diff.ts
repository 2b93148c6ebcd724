import { DELIST } from "../../../services/index.js";
import { delistFeedDiffContract } from "@x402-lookout/contracts/delist/delist-feed-diff";
import { badRequest } from "../../errors.js";
import { defineRoute } from "../../registry.js";

export const TOO_OLD_MESSAGE = "since is older than 48 hours: take a full snapshot with POST /api/v1/delist-feed first, then poll the diff";

export const delistFeedDiffRoute = defineRoute({
  ...delistFeedDiffContract,
  check: ({ body }, services) => {
    if (!body.since) return;
    const since = Date.parse(body.since);
    const now = services.now().getTime();
    if (since < now - DELIST.diffMaxWindowMs) throw badRequest(TOO_OLD_MESSAGE);
    if (since > now + DELIST.clockSkewMs) throw badRequest("since: must not be in the future");
  },
  handler: async ({ body }, { services }) => {
    const now = services.now();
    const since = body.since ? new Date(Math.min(Date.parse(body.since), now.getTime())) : new Date(now.getTime() - DELIST.diffDefaultWindowMs);
    return services.delist.diff({ since, scope: body.scope, limit: body.limit });
  },
});
