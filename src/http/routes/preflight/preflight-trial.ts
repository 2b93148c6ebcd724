import { preflightTrialContract } from "../../contracts/preflight.js";
import { defineRoute } from "../../registry.js";
import { PREFLIGHT_EXAMPLE } from "./examples.js";

export const preflightTrialRoute = defineRoute({
  ...preflightTrialContract,
  examples: { request: { url: "https://premium-signals.example/api/alpha" }, response: PREFLIGHT_EXAMPLE },
  handler: ({ body }, { app, clientIp }) => app.services.trial.preflight(body.url, clientIp),
});
