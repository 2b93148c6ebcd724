import { unsubscribeWatch } from "../../../services/watch/watch-status.js";
import { defineRoute } from "../../registry.js";
import { STATUS_EXAMPLE } from "./examples.js";
import { WatchIdParams, WatchStatusSchema } from "./schemas.js";
import { presentedSecret, SECRET_HEADERS, statusBody, watchNotFound } from "./watch-access.js";

export const deleteWatchRoute = defineRoute({
  id: "watch-unsubscribe",
  method: "delete",
  path: "/api/v1/watch/:id",
  price: null,
  title: "Unsubscribe a watch",
  summary: "Stops a watch for good and keeps its history; free with its secret.",
  description:
    "Alerts still waiting are closed as failed and nothing more is sent. The answer is the watch's status, now `unsubscribed`; repeating the call answers the same. Authentication and 404 behave as for the status route.",
  params: WatchIdParams,
  headers: SECRET_HEADERS,
  response: WatchStatusSchema,
  examples: { response: { ...STATUS_EXAMPLE, state: "unsubscribed", unsubscribedAt: "2026-11-22T08:00:00.000Z" } },
  errors: [
    { status: 404, when: "the id is malformed or unknown, or the secret is wrong or missing (identical bodies)" },
    { status: 503, when: "the database is unavailable" },
  ],
  handler: async ({ params }, ctx) => {
    const s = await unsubscribeWatch({ db: ctx.app.db.db, clock: ctx.app.clock }, params.id, presentedSecret(ctx));
    if (!s) throw watchNotFound();
    return statusBody(s);
  },
});
