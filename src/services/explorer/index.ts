// What the explorer's pages may name: the list's shape and limits, and the page types.
export { createExplorerService, type ExplorerService, type ProviderPage, type ServicePage } from "./service.js";
export * from "./types.js";
export { TIMELINE_DAYS, type FlagChange } from "./flag-changes.js";
export { TIMELINE_LIMIT, type ProviderIncident, type ProviderTimeline } from "./provider-incidents.js";
