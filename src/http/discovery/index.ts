export { agentCard } from "./agent-card.js";
export { badgeSvg, xmlEscape } from "./badge-svg.js";
export { llmsTxt } from "./llms-txt.js";
export { mountDiscovery, type DiscoveryDeps } from "./mount-discovery.js";
export { DISCOVERY_PATHS } from "./paths.js";
export { x402Manifest } from "./x402-manifest.js";
