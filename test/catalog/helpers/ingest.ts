import { ingestOptions, runIngestCycle, type IngestOptions, type PollSummary } from "../../../src/services/catalog/index.js";
import type { TestContext } from "../../helpers/context.js";

/**
 * Short timeouts so fault tests finish fast; a fixed jitter so backoff is predictable; origin
 * manifests off (their own tests turn them on), since fixture hosts publish none.
 */
export const TEST_OPTIONS: Partial<IngestOptions> = { requestTimeoutMs: 500, pollBudgetMs: 5_000, random: () => 0.5, manifestCadenceMs: 0 };

/** One ingest cycle over `sources` as a given owner, on the context's database and clock. */
export function ingestOnce(ctx: TestContext, sources: string[], overrides: Partial<IngestOptions> = {}): Promise<PollSummary[]> {
  const opts = ingestOptions(ctx.config.catalogPollSeconds, { ...TEST_OPTIONS, ...overrides });
  return runIngestCycle({ db: ctx.db.db, clock: ctx.clock, log: ctx.log }, sources, opts);
}

/** Polls `source` once and expects exactly one summary (the source was due). */
export async function pollOnce(ctx: TestContext, source: string, overrides: Partial<IngestOptions> = {}): Promise<PollSummary> {
  const [summary, ...more] = await ingestOnce(ctx, [source], overrides);
  if (!summary || more.length > 0) throw new Error(`expected one poll of ${source}, got ${more.length + (summary ? 1 : 0)}`);
  return summary;
}

export const MINUTE = 60_000;

/** Moves the clock past the cadence, so every healthy source is due again. */
export const nextCadence = (ctx: TestContext) => ctx.clock.advance(ctx.config.catalogPollSeconds * 1000 + 1000);

export async function listingsOf(ctx: TestContext, source?: string) {
  let q = ctx.db.db.selectFrom("listings").selectAll().orderBy("url_normalized").orderBy("method");
  if (source) q = q.where("source_url", "=", source);
  return q.execute();
}
