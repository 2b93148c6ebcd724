import { WHATS_NEW } from "../../../services/index.js";
import { whatsNewContract } from "@x402-lookout/contracts/catalog/whats-new";
import { badRequest } from "../../errors.js";
import { defineRoute } from "../../registry.js";

export const whatsNewRoute = defineRoute({
  ...whatsNewContract,
  check: ({ body }, services) => {
    if (!body.since) return;
    const since = Date.parse(body.since);
    const now = services.now().getTime();
    if (since < now - WHATS_NEW.maxAgeMs) throw badRequest("since: must not be older than 30 days");
    // No clock-skew tolerance: a window that starts after now is no window (/spec#whats-new).
    if (since > now) throw badRequest(`since: must not be in the future (server time ${new Date(now).toISOString()})`);
  },
  handler: async ({ body }, { services }) => {
    const now = services.now();
    const since = body.since ? new Date(body.since) : new Date(now.getTime() - WHATS_NEW.defaultWindowMs);
    return services.whatsNew.changes(since, body.limit, now);
  },
});
