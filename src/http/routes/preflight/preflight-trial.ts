import { preflightTrialContract } from "@x402-lookout/contracts/preflight/preflight-trial";
import { defineRoute } from "../../registry.js";
import { reportTarget } from "./report-target.js";

export const preflightTrialRoute = defineRoute({
  ...preflightTrialContract,
  handler: ({ body }, { services, clientIp }) => services.trial.preflight(reportTarget(body), clientIp),
});
