import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

/**
 * One listing with everything a verdict reads: catalog fields, its snapshot, its host's checks.
 * The batch recompute loads all active listings this way (`scan`: the planner may hash the host
 * checks); the request path loads a few (`few`: each host's checks by their key, since hashing
 * every host's row to join a dozen listings was most of the lookup's time).
 */
export function selectListingRows(db: Kysely<Database>, rows: "scan" | "few" = "scan") {
  const base = db
    .selectFrom("listings as l")
    .innerJoin("services as sv", "sv.service_id", "l.service_id")
    .leftJoin("signal_snapshots as s", "s.listing_id", "l.id");
  // LIMIT 1 keeps the lateral subquery a per-row index probe: without it the planner flattens it into the plain join.
  const withHost =
    rows === "scan"
      ? base.leftJoin("host_checks as h", "h.host", "l.host")
      : base.leftJoinLateral((eb) => eb.selectFrom("host_checks").selectAll().whereRef("host_checks.host", "=", "l.host").limit(sql.lit(1)).as("h"), (join) => join.onTrue());
  return withHost.select([
    "l.id",
    "l.url",
    "l.url_normalized",
    "l.method",
    "l.host",
    "l.service_id",
    "sv.name as service_name",
    "sv.first_seen_at as service_first_seen_at",
    "l.provider_id",
    "l.domain",
    "l.category",
    "l.tags",
    sql<string | null>`l.price_usdc::text`.as("listed_price_usdc"),
    "l.currency",
    "l.is_active",
    "l.first_seen_at",
    "l.l30d_calls",
    "l.last_called_at",
    "s.computed_at",
    "s.probes_30m",
    "s.healthy_30m",
    "s.errors_30m",
    "s.probes_1h",
    "s.healthy_1h",
    "s.probes_7d",
    "s.healthy_7d",
    "s.uptime_1h_pct",
    "s.uptime_48h_pct",
    "s.uptime_7d_pct",
    "s.avg_latency_1h_ms",
    "s.p50_latency_7d_ms",
    "s.p90_latency_7d_ms",
    "s.p99_latency_7d_ms",
    "s.max_latency_7d_ms",
    "s.last_probe_at",
    "s.last_outcome",
    "s.last_status_code",
    "s.flagged_since",
    "s.detail",
    "h.wildcard_402_detected",
    "h.wildcard_402_checked_at",
    "h.spa_fallback_detected",
    "h.spa_fallback_checked_at",
    "h.effective_count",
    "h.effective_count_basis",
  ]);
}

export type ListingRow = Awaited<ReturnType<ReturnType<typeof selectListingRows>["executeTakeFirstOrThrow"]>>;

/** The price an agent will be asked: the last observed challenge, else the catalog's. */
export function currentPrice(row: ListingRow): string | null {
  const observed = (row.detail as { last_price_usdc?: unknown } | null)?.last_price_usdc;
  return typeof observed === "string" ? observed : row.listed_price_usdc;
}
