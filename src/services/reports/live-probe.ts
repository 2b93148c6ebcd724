import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { HostLimiter } from "../../lib/host-limiter.js";
import { createGuardedDispatcher } from "../../lib/ssrf-guard.js";
import { PROBE_BODY_CAP_BYTES, PROBE_USER_AGENT } from "../probes/constants.js";
import { probeEndpoint } from "../probes/endpoint-probe.js";
import { createHttpClient, type HttpClient } from "../probes/http-client.js";
import { LIVE_PROBE } from "../signals/constants.js";

/** What one naked request to an uncatalogued URL showed. */
export interface LiveObservation {
  probedAt: string;
  outcome: "healthy" | "error";
  statusCode: number | null;
  errorKind: string | null;
  latencyMs: number | null;
  priceUsdc: string | null;
}

export interface LiveProber {
  /** The cached or fresh observation, or null when the target host's probe budget is spent. */
  observe(urlNormalized: string, now: Date): Promise<LiveObservation | null>;
  close(): Promise<void>;
}

/**
 * Unknown URLs get one live probe (signals.md "Unknown URLs"): 3 s budget, the SSRF guard on the
 * resolved address at connect time, results cached 5 minutes per URL and probes of one target
 * host rate limited in the database, so the service cannot be used to flood anyone.
 */
export function createLiveProber(db: Kysely<Database>, opts: { allowPrivate: boolean; publicBaseUrl: string }): LiveProber {
  const dispatcher = createGuardedDispatcher({ allowPrivate: opts.allowPrivate, connectTimeoutMs: LIVE_PROBE.budgetMs, connections: 2 });
  const limiter = new HostLimiter({ concurrency: 2, ratePerSecond: 1, burst: 2, globalConcurrency: 64 });
  const http: HttpClient = createHttpClient({
    dispatcher,
    limiter,
    timeoutMs: LIVE_PROBE.budgetMs,
    maxBodyBytes: PROBE_BODY_CAP_BYTES,
    userAgent: `${PROBE_USER_AGENT} (+${opts.publicBaseUrl})`,
  });

  return {
    async observe(url, now) {
      const cached = await db
        .selectFrom("live_probe_cache")
        .select("result")
        .where("url_normalized", "=", url)
        .where("expires_at", ">", now)
        .executeTakeFirst();
      if (cached) return cached.result as unknown as LiveObservation;
      const host = new URL(url).host;
      if (!(await takeHostBudget(db, host, now))) return null;
      // POST first, as most x402 endpoints take it; a URL that answers POST without a challenge gets one GET.
      const probe = (method: string) => probeEndpoint({ listingId: 0, url, method, host, network: null, asset: null }, http, now);
      const posted = await probe("POST");
      const r = posted.outcome !== "healthy" && posted.statusCode !== null ? await probe("GET") : posted;
      const obs: LiveObservation = {
        probedAt: now.toISOString(),
        outcome: r.outcome,
        statusCode: r.statusCode,
        errorKind: r.errorKind,
        latencyMs: r.latencyMs,
        priceUsdc: r.priceUsdc,
      };
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

/** A fixed one-minute window per target host, counted in the database across API processes. */
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
