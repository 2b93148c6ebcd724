import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import { withDeadline } from "../../lib/transient-errors.js";
import { normalizeUrl } from "../../lib/url-normalize.js";
import { batchEnvelope } from "./batch-report.js";
import { forensicsReport } from "./forensics-report.js";
import { createFindListings, type CatalogRows } from "./listing-lookup.js";
import type { LiveProber } from "./live-probe.js";
import { preflightReport } from "./preflight-report.js";
import { resolveSubjects } from "./subjects.js";
import { targetOf, type ReportTarget } from "./report-target.js";
import { createSeal } from "./seal.js";
import type { VerdictSigner } from "../verdict-signing/index.js";

/** Database budgets: past them a route answers 503 and settles nothing (/spec#preflight-batch says 15 s). */
export const BATCH_DB_BUDGET_MS = 15_000;
export const SINGLE_DB_BUDGET_MS = 8_000;

export interface ReportsDeps {
  db: Pick<DbHandle, "db" | "prepared" | "notifications">;
  clock: Clock;
  /** Probes a URL no listing matches. */
  live: LiveProber;
  /** Signs each report's verdict. */
  sign: VerdictSigner;
  /** Catalog rows kept in memory (REPORT_CACHE_ROWS). */
  cacheRows: number;
  /** The service's own address: links to evidence documents. */
  publicBaseUrl: string;
  budgets?: { batchMs: number; singleMs: number };
}

/** Preflight, batch and forensics: each a lookup of precomputed signals, never a scan. */
export function createReportsService({
  db: handle,
  clock,
  live,
  sign,
  cacheRows,
  publicBaseUrl,
  budgets = { batchMs: BATCH_DB_BUDGET_MS, singleMs: SINGLE_DB_BUDGET_MS },
}: ReportsDeps) {
  const { db } = handle;
  const find = createFindListings(handle, cacheRows);
  const seal = createSeal(sign);
  const subjects = async (targets: readonly ReportTarget[], rows: Promise<CatalogRows>) => resolveSubjects(db, await rows, live, targets, clock.now());
  return {
    /**
     * The catalog rows a report of `urls` starts from: one read, nothing else, so a caller that
     * needs the rows first (the trial) can hand them to the report below.
     */
    find,

    async preflight(target: string | ReportTarget, rows: Promise<CatalogRows> = find([targetOf(target)])) {
      const [subject] = await withDeadline("preflight", budgets.singleMs, () => subjects([targetOf(target)], rows));
      return seal.one(preflightReport(subject!, clock.now(), publicBaseUrl), targetOf(target), subject!, "preflight");
    },

    async batch(items: ReadonlyArray<string | ReportTarget>, rows: Promise<CatalogRows> = find(items.map(targetOf))) {
      // Duplicates (after normalisation) collapse to their first occurrence, in input order.
      const seen = new Set<string>();
      const unique = items.map(targetOf).filter((t) => {
        const key = normalizeUrl(t.url);
        return seen.has(key) ? false : (seen.add(key), true);
      });
      const found = await withDeadline("preflight-batch database", budgets.batchMs, () => subjects(unique, rows));
      const envelope = batchEnvelope(
        unique.map((t, i) => ({ url: t.url, subject: found[i]! })),
        clock.now(),
        publicBaseUrl,
      );
      return seal.batch(envelope, found);
    },

    async forensics(target: string | ReportTarget, rows: Promise<CatalogRows> = find([targetOf(target)])) {
      const [subject, report] = await withDeadline("forensics", budgets.singleMs, async () => {
        const [subject] = await subjects([targetOf(target)], rows);
        return [subject!, await forensicsReport(db, subject!, clock.now(), publicBaseUrl)] as const;
      });
      return seal.one(report, targetOf(target), subject, "forensics");
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
