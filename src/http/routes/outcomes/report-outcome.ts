import { reportOutcomeContract } from "@x402-lookout/contracts/outcomes/report-outcome";
import { defineRoute } from "../../registry.js";

export const reportOutcomeRoute = defineRoute({
  ...reportOutcomeContract,
  handler: ({ body }, { services, clientIp }) => services.outcomes.report(body, clientIp),
});
