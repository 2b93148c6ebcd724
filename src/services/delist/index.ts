export { DELIST, DELIST_REASONS, DELIST_SCOPES, CRITICAL_DELIST_REASONS, GHOST_REASON, type DelistReason, type DelistScope } from "./constants.js";
export { delistDiff, delistSnapshot } from "./feed.js";
export { flaggedListings, type FlaggedListing } from "./flagged-listings.js";
export { recordDailyFlags } from "./record-flags.js";
export { recoveredListings, type RecoveredListing } from "./recovered-listings.js";
