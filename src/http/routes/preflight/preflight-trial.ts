import { preflightTrialContract } from "@x402-lookout/contracts/preflight/routes";
import { defineRoute } from "../../registry.js";
import { reportTarget } from "./report-target.js";
import { PREFLIGHT_EXAMPLE } from "@x402-lookout/contracts/preflight/examples";

export const preflightTrialRoute = defineRoute({
  ...preflightTrialContract,
  examples: { request: { url: "https://premium-signals.example/api/alpha" }, response: PREFLIGHT_EXAMPLE },
  handler: ({ body }, { services, clientIp }) => services.trial.preflight(reportTarget(body), clientIp),
});
