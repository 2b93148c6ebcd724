import { alternativesContract } from "./catalog/alternatives.js";
import { decoysContract } from "./catalog/decoys.js";
import { whatsNewContract } from "./catalog/whats-new.js";
import { createCreditContract } from "./credits/create-credit.js";
import { getCreditContract } from "./credits/get-credit.js";
import { delistFeedDiffContract } from "./delist/delist-feed-diff.js";
import { delistFeedContract } from "./delist/delist-feed.js";
import { forensicsContract } from "./preflight/forensics.js";
import { preflightBatchContract } from "./preflight/preflight-batch.js";
import { preflightTrialContract } from "./preflight/preflight-trial.js";
import { preflightContract } from "./preflight/preflight.js";
import { verdictDeltasContract } from "./snapshot/verdict-deltas.js";
import { verdictSnapshotContract } from "./snapshot/verdict-snapshot.js";
import { createCertificateContract } from "./verified/create-certificate.js";
import { getCertificateContract } from "./verified/get-certificate.js";
import { deliveryCheckContract } from "./delivery/delivery-check.js";
import { reportOutcomeContract } from "./outcomes/report-outcome.js";
import { createWatchContract } from "./watch/create-watch.js";
import { deleteWatchContract } from "./watch/delete-watch.js";
import { getWatchContract } from "./watch/get-watch.js";

export { answerSchema } from "./answer-schema.js";
export type { AnyRouteContract, RouteContract } from "./contract.js";

/**
 * Every product route's contract, keyed by the camel-cased route id: the method name of the
 * typed client. The one list of routes: the server (src/http/routes/index.ts), the typed client
 * and the MCP server all take the routes and their order from here.
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
  deliveryCheck: deliveryCheckContract,
  reportOutcome: reportOutcomeContract,
  delistFeed: delistFeedContract,
  delistFeedDiff: delistFeedDiffContract,
  verdictSnapshot: verdictSnapshotContract,
  verdictDeltas: verdictDeltasContract,
  credits: createCreditContract,
  creditsStatus: getCreditContract,
};

export type RouteContracts = typeof routeContracts;
export type RouteName = keyof RouteContracts;
/** The contracts in their order: the landing page's, /spec's, the OpenAPI document's and the MCP tools'. */
export const routeList: readonly RouteContracts[RouteName][] = Object.values(routeContracts);
/** The typed client's method names, in the same order. */
export const routeNames = Object.keys(routeContracts) as RouteName[];
