import { delistFeedContract } from "@x402-lookout/contracts/delist/routes";
import { defineRoute } from "../../registry.js";
import { SNAPSHOT_EXAMPLE } from "@x402-lookout/contracts/delist/examples";

export const delistFeedRoute = defineRoute({
  ...delistFeedContract,
  examples: { request: { scope: "all", limit: 2000 }, response: SNAPSHOT_EXAMPLE },
  handler: ({ body }, { services }) => services.delist.snapshot({ scope: body.scope, limit: body.limit }),
});
