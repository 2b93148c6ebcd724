import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { PreflightReport } from "../../http/routes/preflight/schemas.js";
import type { Clock } from "../../lib/clock.js";
import { handled } from "../../lib/handled.js";
import type { Logger } from "../../lib/log.js";
import { normalizeUrl } from "../../lib/url-normalize.js";
import type { ReportsService } from "../reports/index.js";
import { createTrialCacheStore } from "./trial-cache.js";
import { createTrialQuota } from "./trial-quota.js";

/**
 * The free preflight: counted per client IP and target host, answers cached 300 s per URL.
 *
 * A call waits for one database round trip, not three: the catalog read runs beside the count
 * (a refused or cached call wastes that one indexed read), and the new answer goes out while
 * its cache write is still running. Until that write lands, calls in this process for the same
 * URL get the answer being written, so a cached answer never depends on which statement came
 * first; a write that fails costs only the cache entry (the next call makes a fresh answer).
 */
export function createTrialService(db: Kysely<Database>, clock: Clock, reports: ReportsService) {
  const consume = createTrialQuota(db);
  const store = createTrialCacheStore(db);
  /** Answers whose cache write is in flight, by normalized URL (entries live as long as the write). */
  const writing = new Map<string, PreflightReport>();

  const remember = (url: string, report: PreflightReport, now: Date, log: Logger) => {
    writing.set(url, report);
    store(url, report, now)
      .catch((err: unknown) => log.warn({ err: { message: (err as Error).message } }, "trial cache write failed; the next call for this URL gets a fresh answer"))
      .finally(() => {
        if (writing.get(url) === report) writing.delete(url);
      });
  };

  return {
    async preflight(url: string, clientIp: string, log: Logger): Promise<PreflightReport> {
      const now = clock.now();
      const normalized = normalizeUrl(url);
      const rows = handled(reports.find([normalized]));
      const cached = (await consume({ ip: clientIp, host: new URL(normalized).host, urlNormalized: normalized }, now)) ?? writing.get(normalized);
      if (cached) return cached;
      const report = await reports.preflight(url, rows);
      remember(normalized, report, now, log);
      return report;
    },
  };
}
