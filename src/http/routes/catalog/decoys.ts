import { decoysContract } from "@x402-lookout/contracts/catalog/decoys";
import { defineRoute } from "../../registry.js";

export const decoysRoute = defineRoute({
  ...decoysContract,
  handler: (_input, { services }) => services.blacklist.decoys(services.now()),
});
