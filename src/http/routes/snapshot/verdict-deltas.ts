import { verdictDeltasContract } from "@x402-lookout/contracts/snapshot/verdict-deltas";
import { defineRoute } from "../../registry.js";

export const verdictDeltasRoute = defineRoute({
  ...verdictDeltasContract,
  // A since the deltas cannot answer in full is refused before payment (a database read, hence async).
  check: ({ body }, services) => services.verdictFeed.checkSince(body.since, services.now()),
  handler: ({ body }, { services }) => services.verdictFeed.deltas(body.since, services.now()),
});
