import type { AnyRouteDef } from "../../registry.js";
import { verdictDeltasRoute } from "./verdict-deltas.js";
import { verdictSnapshotRoute } from "./verdict-snapshot.js";

/** The offline guard's feed: the signed verdict snapshot and its deltas (docs/offline-guard.md). */
export const snapshotRoutes: readonly AnyRouteDef[] = [verdictSnapshotRoute, verdictDeltasRoute];
