import type { AppContext } from "../../src/context.js";
import type { IngestOptions, PollSummary } from "../../src/services/index.js";
import { ingestCadenceMs, ingesterTask, type SourceEntries } from "../../src/workers/ingester.js";
import { startTask } from "../../src/workers/periodic.js";

export interface Ingester {
  /** Runs one cycle now (or waits for the running one) and returns its poll summaries. */
  runNow(): Promise<PollSummary[]>;
  stop(): Promise<void>;
}

/**
 * The ingester role in one call (tests): every CATALOG_POLL_SECONDS, polls the due catalog
 * sources. `sources` overrides config.catalogUrls (the demo passes `demo=<its address>`).
 */
export function startIngester(ctx: AppContext, sources?: SourceEntries, overrides: Partial<IngestOptions> = {}): Ingester {
  const cadenceMs = overrides.cadenceMs ?? ingestCadenceMs(ctx.config);
  const task = startTask("ingester", cadenceMs, ingesterTask(ctx, sources, overrides), ctx.log.child({ worker: "ingester" }));
  return {
    runNow: async () => (await task.runNow()) ?? [],
    stop: () => task.stop(),
  };
}
