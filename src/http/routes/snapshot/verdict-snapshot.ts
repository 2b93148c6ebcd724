import { verdictSnapshotContract } from "@x402-lookout/contracts/snapshot/verdict-snapshot";
import { defineRoute } from "../../registry.js";

export const verdictSnapshotRoute = defineRoute({
  ...verdictSnapshotContract,
  handler: (_input, { services }) => services.verdictFeed.snapshot(services.now()),
});
