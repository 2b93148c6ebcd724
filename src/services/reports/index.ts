import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { withDeadline } from "../../lib/transient-errors.js";
import { normalizeUrl } from "../../lib/url-normalize.js";
import { batchEnvelope } from "./batch-report.js";
import { forensicsReport } from "./forensics-report.js";
import { createListingLookup } from "./listing-lookup.js";
import type { LiveProber } from "./live-probe.js";
import { preflightReport } from "./preflight-report.js";
import { resolveSubjects } from "./subjects.js";

/** Database budgets of spec 8. */
export const BATCH_DB_BUDGET_MS = 15_000;
export const SINGLE_DB_BUDGET_MS = 8_000;

/** Preflight, batch and forensics: each a lookup of precomputed signals, never a scan. */
export function createReportsService(
  db: Kysely<Database>,
  clock: Clock,
  live: LiveProber,
  budgets: { batchMs: number; singleMs: number } = { batchMs: BATCH_DB_BUDGET_MS, singleMs: SINGLE_DB_BUDGET_MS },
) {
  const lookup = createListingLookup(db);
  const subjects = (urls: readonly string[]) => resolveSubjects(lookup, live, urls, clock.now());
  return {
    async preflight(url: string) {
      const [subject] = await withDeadline("preflight", budgets.singleMs, () => subjects([url]));
      return preflightReport(subject!, clock.now());
    },

    async batch(urls: readonly string[]) {
      // Duplicates (after normalisation) collapse to their first occurrence, in input order.
      const seen = new Set<string>();
      const unique = urls.filter((u) => {
        const key = normalizeUrl(u);
        return seen.has(key) ? false : (seen.add(key), true);
      });
      const found = await withDeadline("preflight-batch database", budgets.batchMs, () => subjects(unique));
      return batchEnvelope(unique.map((url, i) => ({ url, subject: found[i]! })), clock.now());
    },

    async forensics(url: string) {
      return withDeadline("forensics", budgets.singleMs, async () => {
        const [subject] = await subjects([url]);
        return forensicsReport(db, subject!, clock.now());
      });
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
