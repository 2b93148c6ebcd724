import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { MAX_PAGE_BYTES, MAX_PAGES, PAGE_LIMIT, POLL_BUDGET_MS, REQUEST_TIMEOUT_MS, SOURCE_GRACE_MS, MANIFEST_CADENCE_MS } from "./constants.js";
import type { IngestOptions } from "./types.js";

/** The ingester's options: the cadence from config, the rest from constants.ts unless given. */
export function ingestOptions(catalogPollSeconds: number, overrides: Partial<IngestOptions> = {}): IngestOptions {
  return {
    // Unique per instance: two ingesters in one process must not share a lease.
    owner: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    cadenceMs: catalogPollSeconds * 1000,
    pageLimit: PAGE_LIMIT,
    maxPages: MAX_PAGES,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    pollBudgetMs: POLL_BUDGET_MS,
    maxPageBytes: MAX_PAGE_BYTES,
    sourceGraceMs: SOURCE_GRACE_MS,
    manifestCadenceMs: MANIFEST_CADENCE_MS,
    allowPrivateTargets: false,
    random: Math.random,
    ...overrides,
  };
}
