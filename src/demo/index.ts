export { startDemoFleet } from "./start-demo-fleet.js";
export { CATALOG_PATH, DEFAULT_FLAP_PERIOD_MS, DEFAULT_QUOTE_SWITCH_MS, DEFAULT_SLOW_MS, DIES_EARLY_AFTER_MS } from "./constants.js";
export { EXPECTATIONS } from "./expectations.js";
export { flapIsDown } from "./servers/behaviours.js";
export type {
  DemoCatalogItem,
  DemoCatalogPage,
  DemoEndpoint,
  DemoExpectation,
  DemoFleet,
  DemoFleetOptions,
  DemoHosts,
  DemoKind,
  DemoListingInput,
  DemoMethod,
  DiscoveryQuality,
  NakedResponse,
  QuoteTrick,
} from "./types.js";
