import { delistFeedContract } from "../../../contracts/delist/routes.js";
import { defineRoute } from "../../registry.js";
import { SNAPSHOT_EXAMPLE } from "../../../contracts/delist/examples.js";

export const delistFeedRoute = defineRoute({
  ...delistFeedContract,
  examples: { request: { scope: "all", limit: 2000 }, response: SNAPSHOT_EXAMPLE },
  handler: ({ body }, { services }) => services.delist.snapshot({ scope: body.scope, limit: body.limit }),
});
