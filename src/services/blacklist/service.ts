import { sql, type Kysely } from "kysely";
import type { DbHandle } from "../../db/client.js";
import { perGeneration } from "../../db/read-models/per-generation.js";
import type { Database } from "../../db/schema.js";
import { providerName } from "../catalog/listing-queries.js";
import { BLACKLIST_REASONS } from "../signals/constants.js";

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const pct = (v: number | null) => (v === null ? null : Math.round(v));

/** Most severe first: the order of BLACKLIST_REASONS, then the URL, so answers are byte-stable. */
const SEVERITY = sql<number>`case
  when ${BLACKLIST_REASONS[0]} = any(s.blacklist_reasons) then 0
  when ${BLACKLIST_REASONS[1]} = any(s.blacklist_reasons) then 1
  when ${BLACKLIST_REASONS[2]} = any(s.blacklist_reasons) then 2
  else 3 end`;

export interface BlacklistDeps {
  db: Pick<DbHandle, "db" | "generation">;
  /** Entries per answer (MAX_ENTRIES); past it the answer says truncated. */
  maxEntries: number;
}

/**
 * The decoy blacklist (/spec#catalog-decoys). It changes only when the verdicts are recomputed, so each API
 * process builds it once per verdict generation and answers from memory in between: every call
 * of one generation gets the same bytes apart from generated_at.
 */
export function createBlacklistService({ db: handle, maxEntries }: BlacklistDeps) {
  const current = perGeneration(handle, () => blacklist(handle.db, maxEntries));
  return {
    async decoys(now: Date) {
      return { generated_at: now.toISOString(), ...(await current()) };
    },
    warm: async () => void (await current()),
  };
}

export type BlacklistService = ReturnType<typeof createBlacklistService>;

/**
 * Every active listing with a blacklist reason, read from the verdicts the prober precomputes
 * (a partial index holds only flagged rows), plus the hosts whose listings are not real supply.
 */
async function blacklist(db: Kysely<Database>, maxEntries: number) {
  const flagged = () =>
    db
      .selectFrom("signal_snapshots as s")
      .innerJoin("listings as l", "l.id", "s.listing_id")
      .where("l.is_active", "=", true)
      .where(sql<boolean>`s.blacklist_reasons <> '{}'`);

  const [rows, byReason, hosts] = await Promise.all([
    flagged()
      .innerJoin("services as sv", "sv.service_id", "l.service_id")
      .leftJoin("providers as p", "p.provider_id", "l.provider_id")
      .leftJoin("host_checks as h", "h.host", "l.host")
      .select([
        "l.url",
        "l.service_id",
        "sv.name as service_name",
        providerName().as("provider"),
        sql<string | null>`l.price_usdc::text`.as("price_usdc"),
        "l.currency",
        "s.blacklist_reasons as reasons",
        "s.probes_7d",
        "s.healthy_7d",
        "s.uptime_7d_pct",
        "s.last_probe_at",
        "h.wildcard_402_detected",
        "h.spa_fallback_detected",
        "h.wildcard_402_checked_at",
        "h.spa_fallback_checked_at",
      ])
      .orderBy(SEVERITY)
      .orderBy("l.url_normalized")
      .orderBy("l.method")
      .limit(maxEntries + 1)
      .execute(),
    flagged()
      .select([sql<string>`unnest(s.blacklist_reasons)`.as("reason"), sql<number>`count(*)::int`.as("n")])
      .groupBy("reason")
      .execute(),
    hostGroups(db),
  ]);

  const entries = rows.slice(0, maxEntries).map((r) => ({
    url: r.url,
    service_id: r.service_id,
    service_name: r.service_name,
    provider: r.provider,
    price_usdc: r.price_usdc,
    currency: r.currency,
    reasons: BLACKLIST_REASONS.filter((reason) => r.reasons.includes(reason)),
    probes_7d: r.probes_7d,
    healthy_7d: r.healthy_7d,
    uptime_7d_pct: pct(r.uptime_7d_pct),
    last_probe_at: iso(r.last_probe_at),
    wildcard_402_detected: r.wildcard_402_detected ?? false,
    spa_fallback_detected: r.spa_fallback_detected ?? false,
    wildcard_402_checked_at: iso(r.wildcard_402_checked_at ?? null),
    spa_fallback_checked_at: iso(r.spa_fallback_checked_at ?? null),
  }));
  const counts = Object.fromEntries(BLACKLIST_REASONS.map((reason) => [reason, byReason.find((b) => b.reason === reason)?.n ?? 0]));
  const total = await flagged()
    .select(sql<number>`count(*)::int`.as("n"))
    .executeTakeFirstOrThrow();
  return {
    counts: {
      total: total.n,
      by_reason: counts,
      wildcard_402_services: hosts.wildcard.length,
      spa_fallback_services: hosts.spa.length,
    },
    truncated: rows.length > maxEntries,
    wildcard_402_hosts: hosts.wildcard,
    spa_fallback_hosts: hosts.spa,
    entries,
  };
}

/** Per service on a wildcard-402 or SPA-fallback host: listed paths vs real supply. */
async function hostGroups(db: Kysely<Database>) {
  const rows = await db
    .selectFrom("listings as l")
    .innerJoin("host_checks as h", "h.host", "l.host")
    .innerJoin("services as sv", "sv.service_id", "l.service_id")
    .leftJoin("providers as p", "p.provider_id", "l.provider_id")
    .where("l.is_active", "=", true)
    .where((eb) => eb.or([eb("h.wildcard_402_detected", "=", true), eb("h.spa_fallback_detected", "=", true)]))
    .select([
      "l.service_id",
      "sv.name as service_name",
      sql<string | null>`min(coalesce(p.name, l.provider_id))`.as("provider"),
      "h.wildcard_402_detected as wildcard",
      "h.spa_fallback_detected as spa",
      sql<number>`count(*)::int`.as("raw_count"),
      sql<number>`min(greatest(coalesce(h.effective_count, 1), 1))::int`.as("effective"),
      sql<Date | null>`max(h.wildcard_402_checked_at)`.as("wildcard_checked_at"),
      sql<Date | null>`max(h.spa_fallback_checked_at)`.as("spa_checked_at"),
    ])
    .groupBy(["l.service_id", "sv.name", "h.wildcard_402_detected", "h.spa_fallback_detected"])
    .orderBy("l.service_id")
    .execute();
  const shape = (r: (typeof rows)[number], checkedAt: Date | null, key: "wildcard_402_checked_at" | "spa_fallback_checked_at") => {
    const effective = Math.min(r.raw_count, r.effective);
    return {
      service_id: r.service_id,
      service_name: r.service_name,
      provider: r.provider,
      raw_count: r.raw_count,
      effective_count: effective,
      synthetic_count: r.raw_count - effective,
      [key]: iso(checkedAt),
    };
  };
  return {
    wildcard: rows.filter((r) => r.wildcard).map((r) => shape(r, r.wildcard_checked_at, "wildcard_402_checked_at")),
    spa: rows.filter((r) => r.spa).map((r) => shape(r, r.spa_checked_at, "spa_fallback_checked_at")),
  };
}
