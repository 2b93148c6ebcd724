import { sql } from "kysely";
import type { DbHandle } from "../client.js";

/** What /readyz and the age gauges read: each a primary-key or indexed lookup, none a scan. */
export interface Freshness {
  /** When the newest verdict recompute finished (the verdict generation's time). */
  verdictAt: Date | null;
  /** When the newest complete catalog poll finished. */
  catalogPollAt: Date | null;
  activeListings: boolean;
  /** Catalog sources (not origin manifests) whose last poll, finished after `since`, failed. */
  failingSources: string[];
}

export async function readFreshness(handle: Pick<DbHandle, "db" | "generation">, since: Date): Promise<Freshness> {
  const { db } = handle;
  const [generation, poll, listing, failing] = await Promise.all([
    handle.generation.read(),
    // Walks catalog_polls_started_at_idx backwards to the first complete poll of a configured catalog.
    db
      .selectFrom("catalog_polls")
      .select("finished_at")
      .where("complete", "=", true)
      .where("finished_at", "is not", null)
      .where("source_id", "in", (q) => q.selectFrom("catalog_sources").select("catalog_sources.id").where("catalog_sources.kind", "=", "bazaar"))
      .orderBy("started_at", "desc")
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom("listings")
      .select(sql<number>`1`.as("one"))
      .where("is_active", "=", true)
      .limit(1)
      .executeTakeFirst(),
    // Configured catalogs only: an origin manifest a catalog names may well not exist.
    db
      .selectFrom("catalog_sources")
      .select("url")
      .where("kind", "=", "bazaar")
      .where("last_status", "=", "error")
      .where("last_poll_finished_at", ">", since)
      .execute(),
  ]);
  return {
    verdictAt: generation.computedAt ? new Date(generation.computedAt) : null,
    catalogPollAt: poll?.finished_at ?? null,
    activeListings: listing !== undefined,
    failingSources: failing.map((s) => s.url),
  };
}

/** Payments claimed or settling: an answer or a settlement not finished (payments_unfinished_idx). */
export async function countUnfinishedPayments(handle: Pick<DbHandle, "db">): Promise<number> {
  const row = await handle.db
    .selectFrom("payments")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("status", "in", ["claimed", "settling"])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Active listings whose newest probe since `since` the SSRF guard refused, and one of their hosts. */
export interface RefusedListings {
  count: number;
  exampleHost: string | null;
}

/** signal_snapshots_refused_idx: only snapshots that ever had a refused probe are read (decision 0037). */
export async function readRefusedListings(handle: Pick<DbHandle, "db">, since: Date): Promise<RefusedListings> {
  const row = await handle.db
    .selectFrom("signal_snapshots as s")
    .innerJoin("listings as l", "l.id", "s.listing_id")
    .select([sql<number>`count(*)::int`.as("n"), sql<string | null>`min(l.host)`.as("host")])
    .where("s.last_refused_at", "is not", null)
    .where("s.last_refused_at", ">", since)
    .where((eb) => eb.or([eb("s.last_probe_at", "is", null), eb("s.last_refused_at", ">", eb.ref("s.last_probe_at"))]))
    .where("l.is_active", "=", true)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), exampleHost: row.host };
}
