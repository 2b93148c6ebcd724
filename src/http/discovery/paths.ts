import { JWKS_PATH } from "../../services/index.js";

/** The public, unpaid surfaces that let agents and people find and trust the service. */
export const DISCOVERY_PATHS = {
  x402: "/.well-known/x402",
  llms: "/llms.txt",
  agentCard: "/.well-known/agent-card.json",
  jwks: JWKS_PATH,
  dataset: "/dataset",
  datasetIndex: "/dataset/index.json",
  prober: "/prober",
} as const;
