import { normalizeUrl } from "../../lib/url-normalize.js";
import type { CatalogRows } from "./listing-lookup.js";
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
      failStreak: obs?.outcome === "error" ? 1 : 0,
      probes1h: obs ? 1 : 0,
      avgLatency1hMs: obs?.latencyMs ?? null,
      lastProbeAt: obs ? new Date(obs.probedAt) : null,
      probes7d: 0,
      healthy7d: 0,
      p99Latency7dMs: null,
      serviceEndpoints: 0,
      serviceFailedEndpoints: 0,
      serviceHealthyEndpoints: 0,
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

/** The subjects for a list of URLs: the catalogued ones from their rows, a live probe for each unknown one. */
export async function resolveSubjects(rows: CatalogRows, live: LiveProber, urls: readonly string[], now: Date): Promise<Subject[]> {
  return Promise.all(
    urls.map(async (url) => {
      const row = rows.get(url);
      if (row) return subjectOf(row);
      const normalized = normalizeUrl(url);
      return unknownSubject(normalized, await live.observe(normalized, now));
    }),
  );
}
