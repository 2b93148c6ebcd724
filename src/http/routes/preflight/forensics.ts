import { forensicsContract } from "@x402-lookout/contracts/preflight/forensics";
import { defineRoute } from "../../registry.js";
import { reportTarget } from "./report-target.js";

export const forensicsRoute = defineRoute({
  ...forensicsContract,
  prepare: ({ body }, services) => services.reports.find([reportTarget(body)]),
  handler: ({ body }, { services }, rows) => services.reports.forensics(reportTarget(body), rows),
});
