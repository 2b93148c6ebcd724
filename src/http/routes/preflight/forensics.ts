import { forensicsContract } from "@x402-lookout/contracts/preflight/routes";
import { defineRoute } from "../../registry.js";
import { reportTarget } from "./report-target.js";
import { FORENSICS_EXAMPLE } from "@x402-lookout/contracts/preflight/examples";

export const forensicsRoute = defineRoute({
  ...forensicsContract,
  examples: { request: { url: "https://premium-signals.example/api/alpha" }, response: FORENSICS_EXAMPLE },
  prepare: ({ body }, services) => services.reports.find([reportTarget(body)]),
  handler: ({ body }, { services }, rows) => services.reports.forensics(reportTarget(body), rows),
});
