import { getWatchContract } from "@x402-lookout/contracts/watch/routes";
import { defineRoute } from "../../registry.js";
import { STATUS_EXAMPLE } from "@x402-lookout/contracts/watch/examples";
import { presentedSecret, statusBody, watchNotFound } from "./watch-access.js";

export const getWatchRoute = defineRoute({
  ...getWatchContract,
  examples: { response: STATUS_EXAMPLE },
  handler: async ({ params }, ctx) => {
    const s = await ctx.services.watch.status(params.id, presentedSecret(ctx));
    if (!s) throw watchNotFound();
    return statusBody(s);
  },
});
