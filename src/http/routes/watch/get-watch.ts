import { watchStatus } from "../../../services/watch/watch-status.js";
import { defineRoute } from "../../registry.js";
import { STATUS_EXAMPLE } from "./examples.js";
import { WatchIdParams, WatchStatusSchema } from "./schemas.js";
import { presentedSecret, SECRET_HEADERS, statusBody, watchNotFound } from "./watch-access.js";

export const getWatchRoute = defineRoute({
  id: "watch-status",
  method: "get",
  path: "/api/v1/watch/:id",
  price: null,
  title: "Watch status",
  summary: "State, quota, current signal states and the last 10 deliveries of a watch; free with its secret.",
  description:
    "Present the secret returned at creation as `Authorization: Bearer <secret>` or `X-Watch-Secret: <secret>`. A malformed id, an unknown id and a wrong or missing secret answer the same 404, so none can be told apart; the secret is compared in constant time.",
  params: WatchIdParams,
  headers: SECRET_HEADERS,
  response: WatchStatusSchema,
  examples: { response: STATUS_EXAMPLE },
  errors: [
    { status: 404, when: "the id is malformed or unknown, or the secret is wrong or missing (identical bodies)" },
    { status: 503, when: "the database is unavailable" },
  ],
  handler: async ({ params }, ctx) => {
    const s = await watchStatus({ db: ctx.app.db.db, clock: ctx.app.clock }, params.id, presentedSecret(ctx));
    if (!s) throw watchNotFound();
    return statusBody(s);
  },
});
