import type { AnyRouteDef } from "../../registry.js";
import { createWatchRoute } from "./create-watch.js";
import { deleteWatchRoute } from "./delete-watch.js";
import { getWatchRoute } from "./get-watch.js";

/** The watch product: paid subscription, free status and unsubscribe. */
export const watchRoutes: readonly AnyRouteDef[] = [createWatchRoute, getWatchRoute, deleteWatchRoute];
