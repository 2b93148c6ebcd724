import type { AnyRouteDef } from "../registry.js";
import { alternativesRoute } from "./catalog/alternatives.js";
import { decoysRoute } from "./catalog/decoys.js";
import { whatsNewRoute } from "./catalog/whats-new.js";
import { createCreditRoute } from "./credits/create-credit.js";
import { getCreditRoute } from "./credits/get-credit.js";
import { forensicsRoute } from "./preflight/forensics.js";
import { preflightBatchRoute } from "./preflight/preflight-batch.js";
import { preflightRoute } from "./preflight/preflight.js";
import { preflightTrialRoute } from "./preflight/preflight-trial.js";
import { delistRoutes } from "./delist/index.js";
import { snapshotRoutes } from "./snapshot/index.js";
import { verifiedRoutes } from "./verified/index.js";
import { watchRoutes } from "./watch/index.js";

/** Every product route of the service, in the order the landing page and spec list them. */
export const productRoutes: readonly AnyRouteDef[] = [
  preflightTrialRoute,
  preflightRoute,
  preflightBatchRoute,
  forensicsRoute,
  decoysRoute,
  alternativesRoute,
  whatsNewRoute,
  ...watchRoutes,
  ...verifiedRoutes,
  ...delistRoutes,
  ...snapshotRoutes,
  createCreditRoute,
  getCreditRoute,
];
