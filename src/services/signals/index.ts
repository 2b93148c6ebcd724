// What other folders may name: the rules' numbers and codes, the engine, its input and the rows it is read from.
export * from "./constants.js";
export { blacklistReasons, confidenceFor, confidenceOf, evaluate, verdictFrom, type Mode, type SignalInput, type Verdict } from "./engine.js";
export { computeContexts, type GroupStats, type SignalContext } from "./group-context.js";
export { currentPrice, selectListingRows, selectReportRows, type ListingRow, type ReportRow } from "./listing-row.js";
export type { CatalogTerms, ListedQuote, ObservedQuote, SeenValues, SourceClaim } from "./quote-evidence.js";
export { signalInput, storedContext } from "./signal-input.js";
