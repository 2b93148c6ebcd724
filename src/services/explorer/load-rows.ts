import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { usdcDecimal } from "../../lib/money.js";
import type { ExplorerRow } from "./types.js";

type S = string | null;
type N = number | null;
/** [id, url, method, service_id, service, provider_id, provider, category, network, price, action, ok, warnings, uptime, p50, avg, calls 30 d, volume 30 d] */
type Packed = [number, string, string, string, string, S, S, S, S, S, S, boolean | null, string[] | null, N, N, N, N, S];

/**
 * Every active listing with its stored preflight view (signal_snapshots.feed) and 7-day figures,
 * in id order. One row of JSON text parsed once: 100,000 rows cost one parse, not a driver
 * decode per row and column (PGlite's is slow).
 */
export async function loadRows(db: Kysely<Database>): Promise<ExplorerRow[]> {
  const { rows } = await sql<{ rows: string | null }>`
    select json_agg(json_build_array(
      l.id, l.url, l.method, l.service_id, sv.name, l.provider_id, coalesce(p.name, l.provider_id), l.category,
      coalesce(s.feed ->> 'network', l.network), coalesce(s.feed ->> 'price_usdc', l.price_usdc::text),
      s.feed ->> 'action', (s.feed ->> 'ok')::boolean, s.feed -> 'warnings',
      round(s.uptime_7d_pct::numeric, 1), s.p50_latency_7d_ms, s.avg_latency_1h_ms,
      (s.settlements ->> 'calls_30d')::int, s.settlements ->> 'volume_usdc_30d') order by l.id)::text as rows
    from listings l
    join services sv on sv.service_id = l.service_id
    left join providers p on p.provider_id = l.provider_id
    left join signal_snapshots s on s.listing_id = l.id
    where l.is_active`.execute(db);
  const packed = JSON.parse(rows[0]?.rows ?? "[]") as Packed[];
  // Service, provider, category and network names and warning lists repeat: keep one copy of each.
  const strings = new Map<string, string>();
  const share = <T extends string | null>(v: T): T => (v === null ? v : ((strings.get(v) ?? (strings.set(v, v), v)) as T));
  const lists = new Map<string, readonly string[]>();
  const shareList = (v: readonly string[]) => lists.get(v.join(",")) ?? (lists.set(v.join(","), v), v);
  return packed.map((r) => ({
    id: Number(r[0]),
    url: r[1],
    method: share(r[2]),
    serviceId: share(r[3]),
    service: share(r[4]),
    providerId: share(r[5]),
    provider: share(r[6]),
    category: share(r[7]),
    network: share(r[8]),
    priceUsdc: share(usdcDecimal(r[9])),
    action: share(r[10]),
    ok: r[11],
    warnings: shareList(r[12] ?? []),
    uptime7dPct: r[13] === null ? null : Number(r[13]),
    p50LatencyMs: r[14],
    avgLatencyMs: r[15],
    settledCalls30d: r[16],
    volumeUsdc30d: r[17] === null ? null : Number(r[17]),
  }));
}
