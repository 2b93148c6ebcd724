import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { normalizeUrl } from "../../lib/url-normalize.js";
import type { SignalInput } from "../signals/engine.js";
import { judge } from "../evidence/index.js";
import { hostFactsOf, type CatalogRows, type HostFacts, type MatchedRow } from "./listing-lookup.js";
import { observedOf, type LiveObservation } from "./live-observation.js";
import type { LiveProber } from "./live-probe.js";
import { subjectOf, type Subject } from "./preflight-report.js";
import { withQuote, type ReportTarget } from "./report-target.js";

/**
 * A URL the catalog does not list as active, judged by its live probe (none when its host's
 * budget is spent) and what the host checks know of its host: a wildcard-402 or SPA-fallback
 * host answers for any path, so an unknown path on it carries the flag. `listed` is the URL's
 * inactive listing, if any: its service names the subject, its stale evidence is not used.
 */
export function unknownSubject(url: string, obs: LiveObservation | null, host: HostFacts | null, now: Date, listed: MatchedRow | null = null): Subject {
  const hostname = new URL(url).host;
  const input = liveInput(obs, host);
  return {
    url,
    method: obs?.method ?? listed?.method ?? "GET",
    service: listed?.service_name ?? hostname,
    serviceId: listed?.service_id ?? `host:${hostname}`,
    price: obs?.priceUsdc ?? null,
    currency: "USDC",
    isActive: false,
    row: null,
    context: null,
    hostChecks: host,
    input,
    // Nothing stored judges an uncatalogued URL: its live probe is judged now, by the same pipeline rule.
    fired: judge(input, now).reason_codes,
    matched: listed && { url: listed.url, method: listed.method, by: listed.matched_by },
    live: obs,
  };
}

function liveInput(obs: LiveObservation | null, host: HostFacts | null): SignalInput {
  const healthy = obs?.outcome === "healthy" ? 1 : 0;
  // A 400/422 refusing our input is an answer, judged apart from uptime as the prober's are (decision 0046).
  const needsInput = obs?.outcome === "needs_input" ? 1 : 0;
  const judged = obs && !needsInput ? 1 : 0;
  return {
    known: false,
    priceUsdc: obs?.priceUsdc ? Number(obs.priceUsdc) : null,
    probes30m: judged,
    healthy30m: healthy,
    // The live probe's attempts: two network errors or 5xx in a row make an unknown URL dead.
    failStreak: obs?.failedAttempts ?? 0,
    probes1h: judged,
    healthy1h: healthy,
    needsInput1h: needsInput,
    avgLatency1hMs: obs?.latencyMs ?? null,
    lastProbeAt: obs ? new Date(obs.probedAt) : null,
    // The live probe falls in every window it is counted in, so forensics' 1-hour and 7-day figures agree.
    probes7d: judged,
    healthy7d: healthy,
    p99Latency7dMs: null,
    serviceEndpoints: 0,
    serviceFailedEndpoints: 0,
    serviceHealthyEndpoints: 0,
    serviceSince: null,
    providerCalled: false,
    listedSince: null,
    l30dCalls: null,
    lastCalledAt: null,
    wildcard402: host?.wildcard_402_detected ?? false,
    spaFallback: host?.spa_fallback_detected ?? false,
    markupReferenceUsdc: null,
    priceRatioToMedian: null,
    concentrationPct: null,
    listedQuote: null,
    observedQuote: observedOf(obs),
  };
}

/**
 * The subjects for a list of URLs: an active listing from its row; any other URL (uncatalogued,
 * or listed but inactive) from a live probe and its host's checks, read in one statement.
 */
export async function resolveSubjects(
  db: Kysely<Database>,
  rows: CatalogRows,
  live: LiveProber,
  targets: readonly ReportTarget[],
  now: Date,
): Promise<Subject[]> {
  const urls = targets.map((t) => t.url);
  const unknown = urls.filter((url) => !rows.get(url)?.is_active).map(normalizeUrl);
  const hosts = await hostFactsOf(
    db,
    unknown.map((url) => new URL(url).host),
  );
  return Promise.all(
    targets.map(async (target) => {
      const row = rows.get(target.url);
      if (row?.is_active) return withQuote(subjectOf(row, now, row.matched_by), target);
      const normalized = normalizeUrl(target.url);
      const observed = await live.observe(normalized, now);
      return withQuote(unknownSubject(normalized, observed, hosts.get(new URL(normalized).host) ?? null, now, row ?? null), target);
    }),
  );
}
