import { delistFeedContract } from "@x402-lookout/contracts/delist/delist-feed";
import { defineRoute } from "../../registry.js";

export const delistFeedRoute = defineRoute({
  ...delistFeedContract,
  handler: ({ body }, { services }) => services.delist.snapshot({ scope: body.scope, limit: body.limit }),
});
