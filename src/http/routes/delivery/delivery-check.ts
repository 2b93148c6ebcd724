import { deliveryCheckContract } from "@x402-lookout/contracts/delivery/delivery-check";
import { defineRoute } from "../../registry.js";

export const deliveryCheckRoute = defineRoute({
  ...deliveryCheckContract,
  handler: ({ params }, { services }) => services.deliveryChecks.get(params.id),
});
