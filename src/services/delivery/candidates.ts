import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { DECLARED_INPUT } from "../probes/endpoint-job.js";
import { CHECK_RUN_MS, type CheckTarget } from "./ledger.js";

/** A due listing as the checker reads it: what to send, what to expect, what it answered before. */
export interface Candidate extends CheckTarget {
  priceAtomic: string | null;
  warnings: string[];
  probes1h: number;
  declaredInput: unknown;
  /** The Bazaar extension (its `schema` holds the input's enums and the output's schema) and the raw item. */
  raw: unknown;
  /** Checks that reached the payment so far: which input this one sends (input-variant.ts). */
  checksSoFar: number;
  /** The newest delivered bodies of the last 30 days, by the input that got them (canned answers repeat one). */
  delivered: Array<{ input_sha256: string; body_sha256: string }>;
}

/**
 * Listings due a check on the checker's network: active, priced, judged, none checked within the
 * interval, no check running on their host; never checked first, then the longest unchecked.
 */
export async function dueCandidates(db: Kysely<Database>, network: string, intervalMs: number, limit: number, now: Date): Promise<Candidate[]> {
  const recent = new Date(now.getTime() - intervalMs).toISOString();
  const since = new Date(now.getTime() - 30 * 86_400_000).toISOString();
  const running = new Date(now.getTime() - CHECK_RUN_MS).toISOString();
  const { rows } = await sql<Record<string, unknown>>`
    select l.id, l.url, l.method, l.host, l.price_atomic::text as price_atomic, s.warnings,
           coalesce(s.probes_1h, 0) + coalesce(s.unchallenged_1h, 0) + coalesce(s.needs_input_1h, 0) as probes_1h,
           ${DECLARED_INPUT} as declared_input, l.raw,
           (select count(*)::int from delivery_checks d where d.listing_id = l.id and d.auth_nonce is not null) as checks_so_far,
           coalesce((select jsonb_agg(jsonb_build_object('input_sha256', d.input_sha256, 'body_sha256', d.body_sha256) order by d.started_at desc)
              from (select * from delivery_checks d where d.listing_id = l.id and d.outcome = 'delivered' and d.started_at > ${since}::timestamptz
                    and d.body_sha256 is not null order by d.started_at desc limit 4) d), '[]'::jsonb) as delivered,
           (select max(started_at) from delivery_checks d where d.listing_id = l.id) as last_check
    from listings l join signal_snapshots s on s.listing_id = l.id
    where l.is_active and s.risk_score is not null and coalesce(l.price_atomic, 0) > 0
      and (l.network is null or l.network = ${network})
      and not exists (select 1 from delivery_checks d where d.listing_id = l.id and d.started_at > ${recent}::timestamptz)
      and not exists (select 1 from delivery_checks d where d.host = l.host and d.state <> 'done' and d.started_at > ${running}::timestamptz)
    order by last_check asc nulls first, l.id
    limit ${limit}`.execute(db);
  return rows.map((r) => ({
    listingId: Number(r.id),
    url: String(r.url),
    method: String(r.method),
    host: String(r.host),
    priceAtomic: (r.price_atomic as string | null) ?? null,
    warnings: (r.warnings as string[] | null) ?? [],
    probes1h: Number(r.probes_1h),
    declaredInput: r.declared_input,
    raw: r.raw,
    checksSoFar: Number(r.checks_so_far),
    delivered: r.delivered as Candidate["delivered"],
  }));
}
