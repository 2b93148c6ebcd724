import { CompiledQuery, sql, type Kysely } from "kysely";
import { coalesce } from "../../db/coalesce.js";
import { executePrepared } from "../../db/prepared.js";
import type { Database } from "../../db/schema.js";
import { normalizeUrl } from "../../lib/url-normalize.js";
import { selectListingRows, type ListingRow } from "../signals/listing-row.js";
import type { LiveObservation, LiveProber } from "./live-probe.js";
import { subjectOf, type Subject } from "./preflight-report.js";

/** An uncatalogued URL, judged by one live probe (or none when its host's budget is spent). */
export function unknownSubject(url: string, obs: LiveObservation | null): Subject {
  const host = new URL(url).host;
  const healthy = obs?.outcome === "healthy" ? 1 : 0;
  return {
    url,
    service: host,
    serviceId: `host:${host}`,
    price: obs?.priceUsdc ?? null,
    currency: "USDC",
    isActive: false,
    row: null,
    context: null,
    input: {
      known: false,
      priceUsdc: obs?.priceUsdc ? Number(obs.priceUsdc) : null,
      probes30m: obs ? 1 : 0,
      healthy30m: healthy,
      probes1h: obs ? 1 : 0,
      avgLatency1hMs: obs?.latencyMs ?? null,
      lastProbeAt: obs ? new Date(obs.probedAt) : null,
      probes7d: 0,
      healthy7d: 0,
      p99Latency7dMs: null,
      serviceProbes1h: 0,
      serviceErrors1h: 0,
      serviceSince: null,
      listedSince: null,
      l30dCalls: null,
      lastCalledAt: null,
      wildcard402: false,
      spaFallback: false,
      markupReferenceUsdc: null,
      priceRatioToMedian: null,
      concentrationPct: null,
    },
  };
}

/**
 * Listing rows by normalized URL (undefined: not catalogued). Concurrent lookups share one
 * indexed statement per event-loop turn (coalesce); an active listing wins over an inactive
 * one, then the most recently seen. The SQL takes the URLs as one array, so it is one text
 * (one prepared statement) whatever the count.
 */
export type ListingLookup = (urlNormalized: string) => Promise<ListingRow | undefined>;

export function createListingLookup(db: Kysely<Database>): ListingLookup {
  const text = selectListingRows(db, "few")
    .where(sql<boolean>`l.url_normalized = any(${sql.val([])}::text[])`)
    .orderBy("l.is_active", "asc")
    .orderBy("l.last_seen_at", "asc")
    .compile().sql;
  return coalesce(async (urls: readonly string[]) => {
    const distinct = [...new Set(urls)];
    const rows = await executePrepared(db, "listing-rows", CompiledQuery.raw(text, [distinct]) as CompiledQuery<ListingRow>);
    // Later rows win.
    const byUrl = new Map(rows.map((r) => [r.url_normalized, r]));
    return urls.map((u) => byUrl.get(u));
  });
}

/**
 * The subjects for a list of URLs: the catalogued ones from the listing lookup (the URLs of one
 * call share its statement), a live probe for each unknown one.
 */
export async function resolveSubjects(lookup: ListingLookup, live: LiveProber, urls: readonly string[], now: Date): Promise<Subject[]> {
  return Promise.all(
    urls.map(normalizeUrl).map(async (url) => {
      const row = await lookup(url);
      return row ? subjectOf(row) : unknownSubject(url, await live.observe(url, now));
    }),
  );
}
