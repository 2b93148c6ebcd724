import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { HostLimiter } from "../../lib/host-limiter.js";
import { createGuardedDispatcher } from "../../lib/ssrf-guard.js";
import { createHttpClient, DEFAULT_PROFILE, type HttpClient, MAX_RESPONSE_HEADER_BYTES, PROBE_BODY_CAP_BYTES, probeEndpoint } from "../probes/index.js";
import { LIVE_PROBE } from "../signals/index.js";
import { methodsFor, runAttempts } from "./live-attempts.js";
import { catalogMethod } from "./listing-lookup.js";
import { observationOf, readObservation, type LiveObservation } from "./live-observation.js";

export interface LiveProber {
  /** The cached or fresh observation, or null when the target host's probe budget is spent. */
  observe(urlNormalized: string, now: Date): Promise<LiveObservation | null>;
  close(): Promise<void>;
}

/**
 * Unknown URLs get one live probe (signals.md "Free trial and live probes"): up to 3 s for all
 * its requests, the SSRF guard on the resolved address at connect time, results cached 5 minutes
 * per URL and every request counted against the target host's budget in the database, so the
 * service cannot be used to flood anyone. A customer names these URLs, so loopback and private
 * addresses stay out of reach unless ALLOW_PRIVATE_LIVE_PROBES (not the catalog's switch) is on.
 */
export function createLiveProber(db: Kysely<Database>, opts: { allowPrivate: boolean; publicBaseUrl: string }): LiveProber {
  // The scheduled probe's header cap: a large challenge reads the same whichever probe fetched it.
  const dispatcher = createGuardedDispatcher({
    allowPrivate: opts.allowPrivate,
    connectTimeoutMs: LIVE_PROBE.budgetMs,
    connections: 2,
    maxHeaderSize: MAX_RESPONSE_HEADER_BYTES,
  });
  // One live probe sends at most methodsFor(...).length + 1 requests: a burst that size never waits here.
  const limiter = new HostLimiter({ concurrency: 2, ratePerSecond: 1, burst: 4, globalConcurrency: 64 });
  const client = (timeoutMs: number): HttpClient => createHttpClient({ dispatcher, limiter, timeoutMs, maxBodyBytes: PROBE_BODY_CAP_BYTES });

  return {
    async observe(url, now) {
      const cached = await db
        .selectFrom("live_probe_cache")
        .select("result")
        .where("url_normalized", "=", url)
        .where("expires_at", ">", now)
        .executeTakeFirst();
      if (cached) return readObservation(cached.result);
      const host = new URL(url).host;
      // One budget per host whatever the port: a customer naming ports 1..65535 of one machine
      // still sends it at most the host's share.
      const budgetKey = budgetHost(url);
      const methods = methodsFor(await catalogMethod(db, url));
      const deadline = performance.now() + LIVE_PROBE.budgetMs;
      const done = await runAttempts({
        methods,
        left: () => deadline - performance.now(),
        take: () => takeHostBudget(db, budgetKey, now),
        send: (method, timeoutMs) => probeEndpoint({ listingId: 0, url, method, host, network: null, asset: null }, client(timeoutMs), now, DEFAULT_PROFILE),
      });
      if (!done) return null;
      const obs = observationOf(done, now);
      const expires = new Date(now.getTime() + LIVE_PROBE.cacheSeconds * 1000);
      await db
        .insertInto("live_probe_cache")
        .values({ url_normalized: url, result: JSON.stringify(obs), probed_at: now, expires_at: expires })
        .onConflict((oc) => oc.column("url_normalized").doUpdateSet({ result: JSON.stringify(obs), probed_at: now, expires_at: expires }))
        .execute();
      return obs;
    },
    close: () => dispatcher.close(),
  };
}

/** The host a live probe's requests count against: the name without port or trailing dot. */
export const budgetHost = (url: string): string => new URL(url).hostname.replace(/\.$/, "");

/** One request to a host: a fixed one-minute window per host, counted in the database across API processes. */
async function takeHostBudget(db: Kysely<Database>, host: string, now: Date): Promise<boolean> {
  const windowStart = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const row = await db
    .insertInto("host_rate_limits")
    .values({ host, window_start: windowStart, count: 1 })
    .onConflict((oc) => oc.columns(["host", "window_start"]).doUpdateSet({ count: sql`host_rate_limits.count + 1` }))
    .returning("count")
    .executeTakeFirstOrThrow();
  return row.count <= LIVE_PROBE.perHostPerMinute;
}
