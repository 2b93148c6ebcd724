import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { ForensicsReport } from "@x402-lookout/contracts/preflight/schemas";
import { RAW_PROBE_RETENTION_MS } from "../evidence/index.js";
import { DAY, HOUR } from "../signals/constants.js";
import { uptimePct as pct } from "./uptime-pct.js";

// Per vantage only the raw probes tell (the hourly rollups hold no vantage): their retention is the window.
const RAW_WINDOW_MS = RAW_PROBE_RETENTION_MS;

type Row = { vantage: string; probes: number; healthy: number; probes_1h: number; healthy_1h: number; last_probe_at: Date | string | null };
type QuoteRow = { vantage: string; pay_to: string | null; amount: string; asset: string | null; network: string };

/**
 * Uptime and the newest quote per vantage (decision 0048). Uptime counts healthy and error probes,
 * as the listing's own uptime does; a vantage with only a quote in 7 days still gets its entry.
 */
export async function vantagesOf(db: Kysely<Database>, listingId: number, now: Date): Promise<ForensicsReport["vantages"]> {
  const since = new Date(now.getTime() - RAW_WINDOW_MS).toISOString();
  const hour = new Date(now.getTime() - HOUR).toISOString();
  const { rows } = await sql<Row>`
    select vantage, count(*) filter (where outcome in ('healthy', 'error'))::int as probes, count(*) filter (where outcome = 'healthy')::int as healthy,
           count(*) filter (where outcome in ('healthy', 'error') and probed_at > ${hour}::timestamptz)::int as probes_1h,
           count(*) filter (where outcome = 'healthy' and probed_at > ${hour}::timestamptz)::int as healthy_1h, max(probed_at) as last_probe_at
    from probes where listing_id = ${listingId} and probed_at > ${since}::timestamptz and probed_at <= ${now.toISOString()}::timestamptz
    group by vantage`.execute(db);
  const quotes = await sql<QuoteRow>`
    select distinct on (q.vantage) q.vantage, t.pay_to, t.amount::text as amount, t.asset, t.network
    from listing_quotes as q join quote_terms as t using (digest)
    where q.listing_id = ${listingId} and q.source = 'probe' and q.last_seen_at > ${new Date(now.getTime() - 7 * DAY).toISOString()}::timestamptz
      and q.first_seen_at <= ${now.toISOString()}::timestamptz
    order by q.vantage, q.last_seen_at desc`.execute(db);
  const quoteOf = new Map(quotes.rows.map((q) => [q.vantage, { pay_to: q.pay_to, amount: q.amount, asset: q.asset, network: q.network }]));
  const names = [...new Set([...rows.map((r) => r.vantage), ...quoteOf.keys()])].sort();
  return names.map((name) => {
    const r = rows.find((x) => x.vantage === name);
    return {
      name,
      probes_3h: r?.probes ?? 0,
      healthy_3h: r?.healthy ?? 0,
      uptime_3h_pct: r ? pct(r.healthy, r.probes) : null,
      uptime_1h_pct: r ? pct(r.healthy_1h, r.probes_1h) : null,
      last_probe_at: r?.last_probe_at ? new Date(r.last_probe_at).toISOString() : null,
      quote: quoteOf.get(name) ?? null,
    };
  });
}
