import { forensicsContract } from "../../../contracts/preflight/routes.js";
import { defineRoute } from "../../registry.js";
import { reportTarget } from "./report-target.js";
import { FORENSICS_EXAMPLE } from "../../../contracts/preflight/examples.js";

export const forensicsRoute = defineRoute({
  ...forensicsContract,
  examples: { request: { url: "https://premium-signals.example/api/alpha" }, response: FORENSICS_EXAMPLE },
  prepare: ({ body }, services) => services.reports.find([body.url]),
  handler: ({ body }, { services }, rows) => services.reports.forensics(reportTarget(body), rows),
});
