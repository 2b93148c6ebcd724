import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { normalizeUrl } from "../../lib/url-normalize.js";
import type { ReportsService } from "../reports/index.js";
import { createTrialCacheStore } from "./trial-cache.js";
import { createTrialQuota } from "./trial-quota.js";

/** The free preflight: counted per client IP and target host, answers cached 300 s per URL. */
export function createTrialService(db: Kysely<Database>, clock: Clock, reports: ReportsService) {
  const consume = createTrialQuota(db);
  const store = createTrialCacheStore(db);
  return {
    async preflight(url: string, clientIp: string) {
      const now = clock.now();
      const normalized = normalizeUrl(url);
      const cached = await consume({ ip: clientIp, host: new URL(normalized).host, urlNormalized: normalized }, now);
      if (cached) return cached;
      const report = await reports.preflight(url);
      await store(normalized, report, now);
      return report;
    },
  };
}
