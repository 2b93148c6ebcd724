import { defineContract } from "../contract.js";
import { STATUS_EXAMPLE, withSecret } from "./get-watch.js";

export const deleteWatchContract = defineContract({
  id: "watch-unsubscribe",
  method: "delete",
  path: "/api/v1/watch/:id",
  price: null,
  title: "Unsubscribe a watch",
  summary: "Stops a watch for good and keeps its history; free with its secret.",
  description:
    "Alerts still waiting are closed as failed and nothing more is sent. The answer is the watch's status, now `unsubscribed`; repeating the call answers the same. Authentication and 404 behave as for the status route.",
  ...withSecret,
  examples: { response: { ...STATUS_EXAMPLE, state: "unsubscribed", unsubscribedAt: "2026-11-22T08:00:00.000Z" } },
});
