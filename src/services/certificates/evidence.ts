import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Scope } from "./scope.js";

/** One covered listing's evidence, as the criteria read it from the verdict snapshot. */
export interface ListingEvidence {
  id: number;
  url: string;
  method: string;
  active: boolean;
  /** Who is paid for it (the catalog's payTo), and the catalog's service name. */
  payTo: string | null;
  serviceName: string;
  probes7d: number;
  uptime7dPct: number | null;
  p99Latency7dMs: number | null;
  /** The stored verdict (signal_snapshots, as the last recompute wrote it): its warnings, delist reasons, and whether one was computed. */
  warnings: string[];
  delistReasons: string[];
  hasVerdict: boolean;
  probes1h: number;
  /** The last observed challenge price, else the catalog's. */
  priceUsdc: string | null;
  lastProbeAt: Date | null;
  lastOutcome: string | null;
  lastStatusCode: number | null;
  /** x402Version of the last probe that carried a challenge, and when it was probed. */
  lastChallengeVersion: number | null;
  lastChallengeAt: Date | null;
}

function select(db: Kysely<Database>) {
  return db
    .selectFrom("listings as l")
    .innerJoin("services as sv", "sv.service_id", "l.service_id")
    .leftJoin("signal_snapshots as s", "s.listing_id", "l.id")
    .select([
      "l.id",
      "l.url",
      "l.method",
      "l.is_active",
      "l.pay_to",
      "sv.name as service_name",
      "s.probes_7d",
      "s.uptime_7d_pct",
      "s.p99_latency_7d_ms",
      "s.warnings",
      "s.delist_reasons",
      "s.risk_score",
      "s.probes_1h",
      sql<string | null>`coalesce(s.detail->>'last_price_usdc', l.price_usdc::text)`.as("price_usdc"),
      "s.last_probe_at",
      "s.last_outcome",
      "s.last_status_code",
      sql<number | null>`(s.detail->>'last_challenge_version')::int`.as("challenge_version"),
      sql<string | null>`s.detail->>'last_price_at'`.as("challenge_at"),
    ])
    .orderBy("l.url_normalized")
    .orderBy("l.method");
}

type Row = Awaited<ReturnType<ReturnType<typeof select>["execute"]>>[number];

const toEvidence = (r: Row): ListingEvidence => ({
  id: Number(r.id),
  url: r.url,
  method: r.method,
  active: r.is_active,
  payTo: r.pay_to,
  serviceName: r.service_name,
  probes7d: r.probes_7d ?? 0,
  uptime7dPct: r.uptime_7d_pct,
  p99Latency7dMs: r.p99_latency_7d_ms,
  warnings: r.warnings ?? [],
  delistReasons: r.delist_reasons ?? [],
  hasVerdict: r.risk_score !== null,
  probes1h: r.probes_1h ?? 0,
  priceUsdc: r.price_usdc,
  lastProbeAt: r.last_probe_at,
  lastOutcome: r.last_outcome,
  lastStatusCode: r.last_status_code,
  lastChallengeVersion: r.challenge_version,
  lastChallengeAt: r.challenge_at === null ? null : new Date(r.challenge_at),
});

/** Every active listing the scope covers, at most `limit` (callers pass their cap plus one). */
export async function evidenceForScope(db: Kysely<Database>, scope: Scope, limit: number): Promise<ListingEvidence[]> {
  let q = select(db).where("l.is_active", "=", true).where("l.host", "=", scope.host);
  q = scope.kind === "endpoint" ? q.where("l.url_normalized", "=", scope.url) : q.where(sql<boolean>`starts_with(l.url_normalized, ${scope.prefix})`);
  return (await q.limit(limit).execute()).map(toEvidence);
}

/** The listings a certificate covered, as they stand now (inactive ones included). */
export async function evidenceForListings(db: Kysely<Database>, ids: readonly number[]): Promise<ListingEvidence[]> {
  if (ids.length === 0) return [];
  return (
    await select(db)
      .where("l.id", "in", [...ids])
      .execute()
  ).map(toEvidence);
}
