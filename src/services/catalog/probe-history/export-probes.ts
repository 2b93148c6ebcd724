import { sql, type Kysely } from "kysely";
import type { Database } from "../../../db/schema.js";

const PAGE = 5_000;

export interface ExportOptions {
  /** Only probes at or after this instant. */
  since?: Date;
}

/** One probe in the shared history format (the import's input). */
export interface ProbeHistoryLine {
  url: string;
  method: string;
  at: string;
  status?: number;
  network_error?: string;
  latency_ms: number | null;
  price_usdc: string | null;
}

interface Row {
  listing_id: number;
  probed_at: Date;
  status_code: number | null;
  error_kind: string | null;
  latency_ms: number | null;
  price_usdc: string | null;
  url: string;
  method: string;
}

/**
 * The retained raw probes, oldest first, as history records. Reads in keyset pages on
 * (probed_at, listing_id), a probe's identity, so memory stays flat however long the history.
 */
export async function* exportProbes(db: Kysely<Database>, opts: ExportOptions = {}): AsyncGenerator<ProbeHistoryLine> {
  let after: { at: Date; id: number } | undefined;
  for (;;) {
    const cursor = after ? sql`and (p.probed_at, p.listing_id) > (${after.at}::timestamptz, ${after.id}::bigint)` : sql``;
    const since = opts.since ? sql`and p.probed_at >= ${opts.since}::timestamptz` : sql``;
    const { rows } = await sql<Row>`
      select p.listing_id, p.probed_at, p.status_code, p.error_kind, p.latency_ms, p.price_usdc, l.url, l.method
      from probes as p join listings as l on l.id = p.listing_id
      where true ${since} ${cursor}
      order by p.probed_at, p.listing_id
      limit ${PAGE}`.execute(db);
    for (const r of rows) {
      yield {
        url: r.url,
        method: r.method,
        at: new Date(r.probed_at).toISOString(),
        ...(r.status_code !== null ? { status: r.status_code } : { network_error: r.error_kind ?? "network_error" }),
        latency_ms: r.latency_ms,
        price_usdc: r.price_usdc,
      };
    }
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1]!;
    after = { at: new Date(last.probed_at), id: last.listing_id };
  }
}
