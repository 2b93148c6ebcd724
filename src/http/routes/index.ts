import { routeNames, type RouteContracts, type RouteName } from "@x402-lookout/contracts";
import type { AnyRouteDef } from "../registry.js";
import { alternativesRoute } from "./catalog/alternatives.js";
import { decoysRoute } from "./catalog/decoys.js";
import { whatsNewRoute } from "./catalog/whats-new.js";
import { createCreditRoute } from "./credits/create-credit.js";
import { getCreditRoute } from "./credits/get-credit.js";
import { delistFeedDiffRoute } from "./delist/delist-feed-diff.js";
import { delistFeedRoute } from "./delist/delist-feed.js";
import { forensicsRoute } from "./preflight/forensics.js";
import { preflightBatchRoute } from "./preflight/preflight-batch.js";
import { preflightTrialRoute } from "./preflight/preflight-trial.js";
import { preflightRoute } from "./preflight/preflight.js";
import { verdictDeltasRoute } from "./snapshot/verdict-deltas.js";
import { verdictSnapshotRoute } from "./snapshot/verdict-snapshot.js";
import { createCertificateRoute } from "./verified/create-certificate.js";
import { getCertificateRoute } from "./verified/get-certificate.js";
import { deliveryCheckRoute } from "./delivery/delivery-check.js";
import { reportOutcomeRoute } from "./outcomes/report-outcome.js";
import { createWatchRoute } from "./watch/create-watch.js";
import { deleteWatchRoute } from "./watch/delete-watch.js";
import { getWatchRoute } from "./watch/get-watch.js";

/**
 * Each contract's handler, under the contract's name: the type checker refuses a missing route
 * and a route filed under another's name (its id must be that contract's id).
 */
const routes: { [K in RouteName]: AnyRouteDef & { id: RouteContracts[K]["id"] } } = {
  preflightTrial: preflightTrialRoute,
  preflight: preflightRoute,
  preflightBatch: preflightBatchRoute,
  forensics: forensicsRoute,
  catalogDecoys: decoysRoute,
  alternatives: alternativesRoute,
  whatsNew: whatsNewRoute,
  watch: createWatchRoute,
  watchStatus: getWatchRoute,
  watchUnsubscribe: deleteWatchRoute,
  verified: createCertificateRoute,
  verifiedStatus: getCertificateRoute,
  deliveryCheck: deliveryCheckRoute,
  reportOutcome: reportOutcomeRoute,
  delistFeed: delistFeedRoute,
  delistFeedDiff: delistFeedDiffRoute,
  verdictSnapshot: verdictSnapshotRoute,
  verdictDeltas: verdictDeltasRoute,
  credits: createCreditRoute,
  creditsStatus: getCreditRoute,
};

/** Every product route of the service, in the contracts' order (packages/contracts routeContracts). */
export const productRoutes: readonly AnyRouteDef[] = routeNames.map((name) => routes[name]);
