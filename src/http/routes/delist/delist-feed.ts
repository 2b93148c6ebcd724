import { delistSnapshot } from "../../../services/delist/feed.js";
import { delistFeedContract } from "../../contracts/delist.js";
import { defineRoute } from "../../registry.js";
import { SNAPSHOT_EXAMPLE } from "./examples.js";

export const delistFeedRoute = defineRoute({
  ...delistFeedContract,
  examples: { request: { scope: "all", limit: 2000 }, response: SNAPSHOT_EXAMPLE },
  handler: ({ body }, { app }) => delistSnapshot(app, { scope: body.scope, limit: body.limit }),
});
