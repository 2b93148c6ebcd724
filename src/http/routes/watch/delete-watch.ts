import { unsubscribeWatch } from "../../../services/watch/watch-status.js";
import { deleteWatchContract } from "../../contracts/watch.js";
import { defineRoute } from "../../registry.js";
import { STATUS_EXAMPLE } from "./examples.js";
import { presentedSecret, statusBody, watchNotFound } from "./watch-access.js";

export const deleteWatchRoute = defineRoute({
  ...deleteWatchContract,
  examples: { response: { ...STATUS_EXAMPLE, state: "unsubscribed", unsubscribedAt: "2026-11-22T08:00:00.000Z" } },
  handler: async ({ params }, ctx) => {
    const s = await unsubscribeWatch({ db: ctx.app.db.db, clock: ctx.app.clock }, params.id, presentedSecret(ctx));
    if (!s) throw watchNotFound();
    return statusBody(s);
  },
});
