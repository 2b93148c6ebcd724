import type { SignedPreflightReport } from "@x402-lookout/contracts/preflight/schemas";
import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import { normalizeUrl } from "../../lib/url-normalize.js";
import { targetOf, type ReportsService, type ReportTarget } from "../reports/index.js";
import { createTrialCacheStore } from "./trial-cache.js";
import { createTrialQuota } from "./trial-quota.js";

export interface TrialDeps {
  db: Pick<DbHandle, "db" | "prepared">;
  clock: Clock;
  /** Makes the reports the trial answers with. */
  reports: ReportsService;
}

/** The free preflight: counted per client IP and per target host (a cached answer costs the host nothing), answers cached 300 s per URL. */
export function createTrialService({ db: handle, clock, reports }: TrialDeps) {
  const consume = createTrialQuota(handle);
  const store = createTrialCacheStore(handle);
  return {
    async preflight(asked: string | ReportTarget, clientIp: string): Promise<SignedPreflightReport> {
      const now = clock.now();
      const target = targetOf(asked);
      const { url } = target;
      const normalized = normalizeUrl(url);
      const call = { ip: clientIp, host: new URL(normalized).host, urlNormalized: normalized };
      const rows = await reports.find([target]);
      // The cache holds one answer per URL; an answer bound to the agent's quote (or method) is
      // that agent's alone: counted first, then made, never served from the cache nor stored.
      if (target.paymentRequired || target.method) {
        await consume({ ...call, cacheable: false }, now);
        return reports.preflight(target, Promise.resolve(rows));
      }
      // A catalogued URL's report is a lookup: made first and offered to the counting statement,
      // which stores it as the URL's cached answer unless a fresh one is there (one statement).
      if (rows.has(url)) return (await consume({ ...call, offer: await reports.preflight(target, Promise.resolve(rows)) }, now))!;
      // An unknown URL's report takes a live probe: counted first, so a refused or cached call probes nothing.
      const cached = await consume(call, now);
      if (cached) return cached;
      const report = await reports.preflight(target, Promise.resolve(rows));
      await store(normalized, report, now);
      return report;
    },
  };
}
