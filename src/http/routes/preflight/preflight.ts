import { preflightContract } from "@x402-lookout/contracts/preflight/preflight";
import { defineRoute } from "../../registry.js";
import { reportTarget } from "./report-target.js";

export const preflightRoute = defineRoute({
  ...preflightContract,
  prepare: ({ body }, services) => services.reports.find([reportTarget(body)]),
  handler: ({ body }, { services }, rows) => services.reports.preflight(reportTarget(body), rows),
});
