import { preflightContract } from "@x402-lookout/contracts/preflight/routes";
import { defineRoute } from "../../registry.js";
import { reportTarget } from "./report-target.js";
import { PREFLIGHT_EXAMPLE } from "@x402-lookout/contracts/preflight/examples";

export const preflightRoute = defineRoute({
  ...preflightContract,
  examples: { request: { url: "https://premium-signals.example/api/alpha" }, response: PREFLIGHT_EXAMPLE },
  prepare: ({ body }, services) => services.reports.find([reportTarget(body)]),
  handler: ({ body }, { services }, rows) => services.reports.preflight(reportTarget(body), rows),
});
