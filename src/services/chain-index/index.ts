export { createChainIndexer, type ChainIndexer, type ChainIndexerDeps, SUMMARY_REFRESH_MS } from "./service.js";
export { indexStep, type IndexLimits, type StepResult } from "./index-step.js";
export type { AuthorizationLog, BlockInfo, LogSource, TransferLog } from "./log-source.js";
export { settlementsOf, type SettlementSummary } from "./summary.js";
export { signersFor } from "./signers.js";
