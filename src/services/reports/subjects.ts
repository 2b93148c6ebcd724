import { CompiledQuery, type Kysely } from "kysely";
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

const listingRowsSql = new Map<number, string>();

/** The lookup of up to a batch of URLs; its SQL is built once per list length, not per call. */
function listingRowsQuery(db: Kysely<Database>, urls: string[]): CompiledQuery<ListingRow> {
  let text = listingRowsSql.get(urls.length);
  if (text === undefined) {
    text = selectListingRows(db).where("l.url_normalized", "in", urls).orderBy("l.is_active", "asc").orderBy("l.last_seen_at", "asc").compile().sql;
    listingRowsSql.set(urls.length, text);
  }
  return CompiledQuery.raw(text, urls) as CompiledQuery<ListingRow>;
}

/**
 * The subjects for a list of URLs: one indexed query for the catalogued ones (an active listing
 * wins over an inactive one), a live probe for each unknown one.
 */
export async function resolveSubjects(db: Kysely<Database>, live: LiveProber, urls: readonly string[], now: Date): Promise<Subject[]> {
  const normalized = urls.map(normalizeUrl);
  const distinct = [...new Set(normalized)];
  const rows = distinct.length ? await executePrepared(db, "listing-rows", listingRowsQuery(db, distinct)) : [];
  // Later rows win: active over inactive, then the most recently seen.
  const byUrl = new Map(rows.map((r) => [r.url_normalized, r]));
  return Promise.all(
    normalized.map(async (url) => {
      const row = byUrl.get(url);
      return row ? subjectOf(row) : unknownSubject(url, await live.observe(url, now));
    }),
  );
}
