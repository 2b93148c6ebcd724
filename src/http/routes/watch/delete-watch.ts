import { deleteWatchContract } from "@x402-lookout/contracts/watch/delete-watch";
import { defineRoute } from "../../registry.js";
import { presentedSecret, statusBody, watchNotFound } from "./watch-access.js";

export const deleteWatchRoute = defineRoute({
  ...deleteWatchContract,
  handler: async ({ params }, ctx) => {
    const s = await ctx.services.watch.unsubscribe(params.id, presentedSecret(ctx));
    if (!s) throw watchNotFound();
    return statusBody(s);
  },
});
