import type { AnyRouteDef } from "../../registry.js";
import { delistFeedDiffRoute } from "./delist-feed-diff.js";
import { delistFeedRoute } from "./delist-feed.js";

/** The operator product: the full delist snapshot and its 48-hour diff. */
export const delistRoutes: readonly AnyRouteDef[] = [delistFeedRoute, delistFeedDiffRoute];
