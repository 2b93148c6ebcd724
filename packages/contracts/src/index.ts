import { alternativesContract, decoysContract, whatsNewContract } from "./catalog/routes.js";
import { createCreditContract, getCreditContract } from "./credits/routes.js";
import { delistFeedContract, delistFeedDiffContract } from "./delist/routes.js";
import { forensicsContract, preflightBatchContract, preflightContract, preflightTrialContract } from "./preflight/routes.js";
import { verdictDeltasContract, verdictSnapshotContract } from "./snapshot/routes.js";
import { createCertificateContract, getCertificateContract } from "./verified/routes.js";
import { createWatchContract, deleteWatchContract, getWatchContract } from "./watch/routes.js";

export { answerSchema } from "./answer-schema.js";
export type { AnyRouteContract, RouteContract } from "./contract.js";

/**
 * Every product route's contract, keyed by the camel-cased route id: the method name of the
 * typed client. Same routes and order as the server's productRoutes (a test holds them equal).
 */
export const routeContracts = {
  preflightTrial: preflightTrialContract,
  preflight: preflightContract,
  preflightBatch: preflightBatchContract,
  forensics: forensicsContract,
  catalogDecoys: decoysContract,
  alternatives: alternativesContract,
  whatsNew: whatsNewContract,
  watch: createWatchContract,
  watchStatus: getWatchContract,
  watchUnsubscribe: deleteWatchContract,
  verified: createCertificateContract,
  verifiedStatus: getCertificateContract,
  delistFeed: delistFeedContract,
  delistFeedDiff: delistFeedDiffContract,
  verdictSnapshot: verdictSnapshotContract,
  verdictDeltas: verdictDeltasContract,
  credits: createCreditContract,
  creditsStatus: getCreditContract,
};

export type RouteContracts = typeof routeContracts;
export type RouteName = keyof RouteContracts;
