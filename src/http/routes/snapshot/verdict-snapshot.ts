import { VERDICT_SNAPSHOT_EXAMPLE } from "@x402-lookout/contracts/snapshot/examples";
import { verdictSnapshotContract } from "@x402-lookout/contracts/snapshot/routes";
import { defineRoute } from "../../registry.js";

export const verdictSnapshotRoute = defineRoute({
  ...verdictSnapshotContract,
  examples: { request: {}, response: VERDICT_SNAPSHOT_EXAMPLE },
  handler: (_input, { services }) => services.verdictFeed.snapshot(services.now()),
});
