import { preflightContract } from "../../contracts/preflight.js";
import { defineRoute } from "../../registry.js";
import { PREFLIGHT_EXAMPLE } from "./examples.js";

export const preflightRoute = defineRoute({
  ...preflightContract,
  examples: { request: { url: "https://premium-signals.example/api/alpha" }, response: PREFLIGHT_EXAMPLE },
  prepare: ({ body }, app) => app.services.reports.find([body.url]),
  handler: ({ body }, { app }, rows) => app.services.reports.preflight(body.url, rows),
});
