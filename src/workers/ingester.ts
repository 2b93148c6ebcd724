import type { AppContext } from "../context.js";
import { ingestMetrics, ingestOptions, runIngestCycle, type IngestOptions, type PollSummary } from "../services/catalog/index.js";
import { startPeriodic } from "./periodic.js";

export interface Ingester {
  /** Runs one cycle now (or waits for the running one) and returns its poll summaries. */
  runNow(): Promise<PollSummary[]>;
  stop(): Promise<void>;
}

/**
 * The ingester role: every CATALOG_POLL_SECONDS, polls the due catalog sources. `sources`
 * overrides config.catalogUrls (demo mode passes the bundled catalog's address).
 */
export function startIngester(ctx: AppContext, sources?: string[], overrides: Partial<IngestOptions> = {}): Ingester {
  const list = sources ?? ctx.config.catalogUrls ?? [];
  const opts = ingestOptions(ctx.config.catalogPollSeconds, overrides);
  const metrics = ingestMetrics(ctx.metrics);
  const deps = { db: ctx.db.db, clock: ctx.clock, log: ctx.log.child({ worker: "ingester" }) };
  if (list.length === 0) deps.log.warn("no catalog sources: set CATALOG_URLS");
  let last: PollSummary[] = [];
  const periodic = startPeriodic(
    "ingester",
    opts.cadenceMs,
    async (signal) => {
      last = [];
      last = await runIngestCycle(deps, list, opts, metrics, signal);
    },
    deps.log,
  );
  return {
    async runNow() {
      await periodic.runNow();
      return last;
    },
    stop: () => periodic.stop(),
  };
}
