export { CATEGORIES, type Category } from "./constants.js";
export { categoryOf } from "./category.js";
export { domainOf, providerIdOf, serviceIdOf } from "./group-keys.js";
export { runIngestCycle } from "./ingest-cycle.js";
export { ingestMetrics, type IngestMetrics } from "./ingest-metrics.js";
export { ingestOptions } from "./ingest-options.js";
export { parseListing } from "./parse-listing.js";
export { pollSource, type IngestDeps } from "./poll-source.js";
export type { IngestOptions, ParsedListing, PollSummary } from "./types.js";
