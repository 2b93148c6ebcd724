import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { listingsWithNames, providerName } from "../catalog/listing-queries.js";

function page(db: Kysely<Database>, afterId: number, size: number) {
  return listingsWithNames(db)
    .leftJoin("signal_snapshots as s", "s.listing_id", "l.id")
    .leftJoin("host_checks as h", "h.host", "l.host")
    .select([
      "l.id",
      "l.url",
      "l.method",
      "sv.name as service",
      "l.service_id",
      providerName().as("provider"),
      "l.domain",
      "l.category",
      sql<string | null>`coalesce(s.detail->>'last_price_usdc', l.price_usdc::text)`.as("price_usdc"),
      "l.currency",
      "l.network",
      "l.first_seen_at",
      "s.probes_7d",
      "s.healthy_7d",
      "s.uptime_7d_pct",
      "s.uptime_48h_pct",
      "s.p50_latency_7d_ms",
      "s.p90_latency_7d_ms",
      "s.p99_latency_7d_ms",
      "s.max_latency_7d_ms",
      "s.last_probe_at",
      "s.last_outcome",
      "s.warnings",
      "s.blacklist_reasons",
      "s.delist_reasons",
      "h.wildcard_402_detected",
      "h.spa_fallback_detected",
      "s.computed_at",
    ])
    .where("l.is_active", "=", true)
    .where("l.id", ">", afterId)
    .orderBy("l.id")
    .limit(size);
}

export type DatasetRow = Awaited<ReturnType<ReturnType<typeof page>["execute"]>>[number];

/** Every active listing with its aggregates, page by page (keyset on id), so memory stays flat. */
export async function* datasetRows(db: Kysely<Database>, pageSize: number): AsyncGenerator<DatasetRow> {
  let after = 0;
  for (;;) {
    const rows = await page(db, after, pageSize).execute();
    yield* rows;
    if (rows.length < pageSize) return;
    after = Number(rows.at(-1)!.id);
  }
}
