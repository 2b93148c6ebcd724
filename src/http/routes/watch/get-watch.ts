import { getWatchContract } from "@x402-lookout/contracts/watch/get-watch";
import { defineRoute } from "../../registry.js";
import { presentedSecret, statusBody, watchNotFound } from "./watch-access.js";

export const getWatchRoute = defineRoute({
  ...getWatchContract,
  handler: async ({ params }, ctx) => {
    const s = await ctx.services.watch.status(params.id, presentedSecret(ctx));
    if (!s) throw watchNotFound();
    return statusBody(s);
  },
});
