import { watchStatus } from "../../../services/watch/watch-status.js";
import { getWatchContract } from "../../contracts/watch.js";
import { defineRoute } from "../../registry.js";
import { STATUS_EXAMPLE } from "./examples.js";
import { presentedSecret, statusBody, watchNotFound } from "./watch-access.js";

export const getWatchRoute = defineRoute({
  ...getWatchContract,
  examples: { response: STATUS_EXAMPLE },
  handler: async ({ params }, ctx) => {
    const s = await watchStatus({ db: ctx.app.db.db, clock: ctx.app.clock }, params.id, presentedSecret(ctx));
    if (!s) throw watchNotFound();
    return statusBody(s);
  },
});
