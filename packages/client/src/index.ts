/**
 * @x402-lookout/client: the typed client of x402 Lookout and the payment guard for agents.
 * Built from the route contracts alone; loads no server code.
 */
export { createLookoutClient, type LookoutClient, type LookoutClientOptions } from "./client.js";
export { checkedBaseUrl } from "./base-url.js";
export type { CreditState } from "./credit-bundle.js";
export * from "./errors.js";
export { guardFetch, type GuardDecision, type GuardOptions } from "./guard/guard-fetch.js";
export { lookoutPolicy, type LookoutPolicy, type LookoutPolicyOptions } from "./guard/lookout-policy.js";
export type { ReportOutcomesOptions } from "./guard/outcome-reporter.js";
export { judgePaidAnswer, OUTCOME_RETRY, sendOutcomeReport, signOutcomeReport, type OutcomeFields, type OutcomeSigner } from "./outcome-report.js";
export type { DecisionReason } from "./guard/decision.js";
export type { CheckOptions } from "./guard/guard-core.js";
export type { DecidingMode, FailMode, UnknownMode } from "./guard/modes.js";
export {
  PreflightBlockedError,
  PreflightUnavailableError,
  QuoteRefusedError,
  SnapshotBlockedError,
  type BlockReason,
  type LocalRefusal,
} from "./guard/errors.js";
export { DEFAULT_NETWORKS } from "./paying-fetch.js";
export { createOfflineGuard } from "./offline/offline-guard.js";
export type { OfflineGuard, OfflineGuardOptions, OfflineLookout } from "./offline/types.js";
export type { OfflineDecision, OfflineRequirement } from "./offline/decide.js";
export { SnapshotRefusedError } from "./offline/verify.js";
export { KeysUnavailableError, type LookoutKeys } from "./jwks.js";
export { VERDICT_CLOCK_TOLERANCE_SECONDS, type VerdictTime } from "./verdicts.js";
export type {
  AlternativesAnswer,
  Answer,
  CallInfo,
  CallOptions,
  LookoutMethods,
  PreflightReport,
  RecommendedAction,
  RouteInput,
  RouteOutput,
  Verified,
} from "./types.js";
export { VERDICT_JWS, type VerdictClaims } from "@x402-lookout/contracts/verdict";
export { requirementDigest, canonicalTerms, readPaymentRequired, type QuoteChallenge, type QuoteTerms } from "@x402-lookout/contracts/quote";
export { routeContracts, type RouteName } from "@x402-lookout/contracts";
