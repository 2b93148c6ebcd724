import { deleteWatchContract } from "@x402-lookout/contracts/watch/routes";
import { defineRoute } from "../../registry.js";
import { STATUS_EXAMPLE } from "@x402-lookout/contracts/watch/examples";
import { presentedSecret, statusBody, watchNotFound } from "./watch-access.js";

export const deleteWatchRoute = defineRoute({
  ...deleteWatchContract,
  examples: { response: { ...STATUS_EXAMPLE, state: "unsubscribed", unsubscribedAt: "2026-11-22T08:00:00.000Z" } },
  handler: async ({ params }, ctx) => {
    const s = await ctx.services.watch.unsubscribe(params.id, presentedSecret(ctx));
    if (!s) throw watchNotFound();
    return statusBody(s);
  },
});
