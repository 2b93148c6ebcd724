// What outside code may name besides the bag: the services' types, constants the pages and the
// schedule list use, and the payment protocol's pure functions the gate's decision core applies.
export { ingestOptions, type IngestOptions, type PollSummary } from "./catalog/index.js";
export type { CertificateState } from "./certificates/constants.js";
export type { CriterionReport, Observed } from "./certificates/criteria.js";
export { JWKS_PATH } from "./certificates/links.js";
export type { CertificateView } from "./certificates/live-state.js";
export type { Credit, CreditsService } from "./credits/credits-service.js";
export { COLUMNS } from "./dataset/columns.js";
export { DATASET } from "./dataset/constants.js";
export type { PublishedDataset } from "./dataset/list-datasets.js";
export { DELIST } from "./delist/constants.js";
export type { EndpointHistory, EndpointVerdict, FlagSpan, HourBucket, QuoteSpan } from "./endpoint-history/index.js";
export { EXPLORER, LIST_WARNINGS, SORT_KEYS, VERDICTS } from "./explorer/index.js";
export type { ExplorerRow, ListPage, ListQuery, ProviderPage, ServicePage, SortKey, Sparkline, Totals, VerdictFilter } from "./explorer/index.js";
export { authorizationProblem, type SignedAuthorization, type SmartSignatureCheck } from "./payments/authorization-check.js";
export { authorizationKey } from "./payments/authorization-key.js";
export type { ChainReader } from "./payments/chain-outcome.js";
export { RECLAIMABLE, type LedgerRow, type PaymentClaim, type PaymentLedger } from "./payments/ledger.js";
export { identifierHash, openAnswer, sealAnswer, type StoredAnswer } from "./payments/sealed-answer.js";
export { PROBE_TICK_MS } from "./probes/constants.js";
export type { CycleSummary, ProberOptions } from "./probes/probe-runner.js";
export { CRITICAL, type WarningCode } from "./signals/constants.js";
export type { AlerterTickSummary } from "./watch/alerter-tick.js";
export { ALERTER_TICK_MS } from "./watch/constants.js";
export type { CreatedWatch } from "./watch/create-watch.js";
export type { AlerterOptions } from "./watch/service.js";
export type { WatchStatus } from "./watch/watch-status.js";
export { WHATS_NEW } from "./whats-new/whats-new.js";
