import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

/**
 * What a report of one listing reads (preflight, batch, forensics, watches): the engine's input,
 * the metadata and evidence fields, the forensics latencies. The request path reads a few such
 * rows per statement, each host's checks by their key (hashing every host's row to join a dozen
 * listings was most of the lookup's time). Parsing a column costs about as much as the rest of
 * its row's work on the request path, so this list holds only what the reports read.
 */
export function selectReportRows(db: Kysely<Database>) {
  return (
    fromListings(db)
      // LIMIT 1 keeps the lateral subquery a per-row index probe: without it the planner flattens it into the plain join.
      .leftJoinLateral(
        (eb) => eb.selectFrom("host_checks").selectAll().whereRef("host_checks.host", "=", "l.host").limit(sql.lit(1)).as("h"),
        (join) => join.onTrue(),
      )
      .select(reportColumns)
  );
}

/**
 * Every active listing's row for the verdict recompute: the report columns plus what the
 * catalog-wide context groups and compares by (provider, domain, host, tags, ...). The planner
 * may hash the host checks here.
 */
export function selectListingRows(db: Kysely<Database>) {
  return fromListings(db)
    .leftJoin("host_checks as h", "h.host", "l.host")
    .leftJoin("providers as p", "p.provider_id", "l.provider_id")
    .select(reportColumns)
    .select(providerEvidence)
    .select([
      "l.host",
      "l.provider_id",
      "l.domain",
      "l.category",
      "l.tags",
      "s.computed_at",
      "s.errors_30m",
      "s.uptime_48h_pct",
      "s.uptime_7d_pct",
      "s.last_outcome",
      "s.flagged_since",
      "h.effective_count",
    ]);
}

/**
 * new_provider's evidence beyond the listing's own columns (which follow one source): when its
 * payee was first seen here, and the calls every source (listed or not) reports for it.
 */
const providerEvidence = [
  "p.first_seen_at as provider_first_seen_at",
  sql<string | null>`(select max(ls.l30d_calls)::text from listing_sources as ls where ls.listing_id = l.id)`.as("sources_l30d_calls"),
  sql<Date | null>`(select min(ls.last_called_at) from listing_sources as ls where ls.listing_id = l.id)`.as("sources_last_called_at"),
] as const;

const fromListings = (db: Kysely<Database>) =>
  db.selectFrom("listings as l").innerJoin("services as sv", "sv.service_id", "l.service_id").leftJoin("signal_snapshots as s", "s.listing_id", "l.id");

const reportColumns = [
  "l.id",
  "l.url",
  "l.url_normalized",
  "l.match_key",
  "l.method",
  "l.service_id",
  "sv.name as service_name",
  "sv.first_seen_at as service_first_seen_at",
  sql<string | null>`l.price_usdc::text`.as("listed_price_usdc"),
  sql<string | null>`l.price_atomic::text`.as("price_atomic"),
  "l.network",
  "l.asset",
  "l.pay_to",
  "l.currency",
  "l.is_active",
  "l.first_seen_at",
  "l.l30d_calls",
  "l.last_called_at",
  "s.probes_30m",
  "s.healthy_30m",
  "s.probes_1h",
  "s.healthy_1h",
  "s.probes_7d",
  "s.healthy_7d",
  "s.uptime_1h_pct",
  "s.avg_latency_1h_ms",
  "s.p50_latency_7d_ms",
  "s.p90_latency_7d_ms",
  "s.p99_latency_7d_ms",
  "s.max_latency_7d_ms",
  "s.last_probe_at",
  "s.last_status_code",
  "s.fail_streak",
  "s.unchallenged_1h",
  "s.needs_input_1h",
  "s.detail",
  // The paid delivery checks summed up (decision 0051).
  "s.delivery",
  // The chain's settlements summed up (decision 0052).
  "s.settlements",
  // The stored verdict every product reads (signals/verdict.ts).
  "s.warnings",
  "s.risk_score",
  "h.wildcard_402_detected",
  "h.wildcard_402_checked_at",
  "h.spa_fallback_detected",
  "h.spa_fallback_checked_at",
  "h.effective_count_basis",
] as const;

export type ListingRow = Awaited<ReturnType<ReturnType<typeof selectListingRows>["executeTakeFirstOrThrow"]>>;
export type ReportRow = Awaited<ReturnType<ReturnType<typeof selectReportRows>["executeTakeFirstOrThrow"]>>;

/** The price an agent will be asked: the last observed challenge, else the catalog's. */
export function currentPrice(row: ReportRow): string | null {
  const observed = (row.detail as { last_price_usdc?: unknown } | null)?.last_price_usdc;
  return typeof observed === "string" ? observed : row.listed_price_usdc;
}
