import type { AppContext } from "../context.js";
import { ingestOptions, type IngestOptions, type PollSummary } from "../services/index.js";
import type { Task } from "./periodic.js";

/** Configured sources: `url` or `id=url` entries (docs/catalog.md), or parsed ones. */
export type SourceEntries = Parameters<AppContext["services"]["catalog"]["ingest"]>[0]["sources"];

/** A catalog poll as a task. `sources` overrides config.catalogUrls. */
export function ingesterTask(ctx: AppContext, sources?: SourceEntries, overrides: Partial<IngestOptions> = {}): Task<PollSummary[]> {
  const list = sources ?? ctx.config.catalogUrls ?? [];
  const opts = ingestOptions(ctx.config.catalogPollSeconds, {
    sourceGraceMs: ctx.config.catalogSourceGraceHours * 3_600_000,
    allowPrivateTargets: ctx.config.allowPrivateTargets,
    ...overrides,
  });
  const log = ctx.log.child({ worker: "ingester" });
  if (list.length === 0) log.warn("no catalog sources: set CATALOG_URLS");
  return { tick: (signal) => ctx.services.catalog.ingest({ sources: list, opts, log, signal }) };
}

/** The ingester's schedule: every CATALOG_POLL_SECONDS, the due catalog sources are polled. */
export const ingestCadenceMs = (config: Pick<AppContext["config"], "catalogPollSeconds">) => ingestOptions(config.catalogPollSeconds).cadenceMs;
