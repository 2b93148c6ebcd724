import { VERDICT_DELTAS_EXAMPLE } from "@x402-lookout/contracts/snapshot/examples";
import { verdictDeltasContract } from "@x402-lookout/contracts/snapshot/routes";
import { defineRoute } from "../../registry.js";

export const verdictDeltasRoute = defineRoute({
  ...verdictDeltasContract,
  examples: { request: { since: 4213 }, response: VERDICT_DELTAS_EXAMPLE },
  // A since the deltas cannot answer in full is refused before payment (a database read, hence async).
  check: ({ body }, services) => services.verdictFeed.checkSince(body.since, services.now()),
  handler: ({ body }, { services }) => services.verdictFeed.deltas(body.since, services.now()),
});
