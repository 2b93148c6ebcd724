import { forensicsContract } from "../../contracts/preflight.js";
import { defineRoute } from "../../registry.js";
import { FORENSICS_EXAMPLE } from "./examples.js";

export const forensicsRoute = defineRoute({
  ...forensicsContract,
  examples: { request: { url: "https://premium-signals.example/api/alpha" }, response: FORENSICS_EXAMPLE },
  prepare: ({ body }, app) => app.services.reports.find([body.url]),
  handler: ({ body }, { app }, rows) => app.services.reports.forensics(body.url, rows),
});
