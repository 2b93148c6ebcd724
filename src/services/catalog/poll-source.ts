import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/log.js";
import { ListingCollector } from "./listing-collector.js";
import { paginate, type PageHandler, type PaginationOutcome } from "./paginate.js";
import { closePoll, openPoll } from "./poll-record.js";
import { refreshProviderNames } from "./provider-names.js";
import { relistSeen, sourceCounts, unlistUnseen } from "./retire-listings.js";
import { releaseSource, type SourceOutcome } from "./source-lease.js";
import type { CatalogSource } from "./source-spec.js";
import type { IngestOptions, PollSummary } from "./types.js";

export interface IngestDeps {
  db: Kysely<Database>;
  clock: Clock;
  log: Logger;
}

function outcomeOf(complete: boolean, pages: number, error: string | null, interrupted: boolean): SourceOutcome {
  if (complete) return { ok: true, status: "ok", error: null, failed: false };
  return { ok: false, status: pages > 0 ? "partial" : "error", error: interrupted ? "interrupted by shutdown" : error, failed: !interrupted };
}

/**
 * One poll of one claimed source: walk its pages, upsert what they list, and only when every
 * page arrived (and none was mostly garbage) record that it no longer lists the rest, except
 * what malformed items still name; those leave the catalog unless another source lists them.
 * Records the poll and releases the source (with backoff when it failed).
 */
/** How a poll reads its source: the discovery API's pages by default, an origin's manifests for kind manifest. */
export type SourceWalk = (onPage: PageHandler, signal?: AbortSignal) => Promise<PaginationOutcome>;

export async function pollSource(deps: IngestDeps, spec: CatalogSource, opts: IngestOptions, signal?: AbortSignal, walk?: SourceWalk): Promise<PollSummary> {
  const { db, clock, log } = deps;
  const started = performance.now();
  const startedAt = clock.now();
  const source = spec.url;
  const pollId = await openPoll(db, spec, startedAt);
  // A source past its grace writes what it sees but brings nothing back unless this poll completes.
  const counting = await sourceCounts(db, spec.id, startedAt, opts.sourceGraceMs);
  const collector = new ListingCollector(db, spec, startedAt, counting);
  const onPage: PageHandler = (items, version) => collector.add(items, version);
  const pages = await (walk ? walk(onPage, signal) : paginate(source, opts, onPage, signal));
  await collector.flush();
  const c = collector.counts;
  const outcome = outcomeOf(pages.complete, pages.pages, pages.error, signal?.aborted === true);

  // Items too broken to name their resource name no listing to keep. A page mostly of them is a
  // broken page or a changed format (which would otherwise lose all): nothing is taken for gone.
  const held = pages.complete && c.garbagePages > 0;
  const { removed, nextPollAt } = await db.transaction().execute(async (trx) => {
    const now = clock.now();
    const removed = pages.complete && !held ? await unlistUnseen(trx, spec.id, startedAt, now, [...collector.malformedUrls]) : 0;
    // Back within its grace: what this poll saw is listed again.
    if (pages.complete && !counting) c.reactivated += await relistSeen(trx, spec.id, startedAt, now);
    await closePoll(trx, pollId, now, {
      complete: pages.complete,
      itemsSeen: c.seen,
      itemsValid: c.valid,
      itemsMalformed: c.malformed,
      added: c.inserted + c.reactivated,
      removed,
      error: outcome.error,
    });
    const nextPollAt = await releaseSource(trx, spec.id, opts.owner, now, outcome, opts.random);
    return { removed, nextPollAt };
  });
  if (c.valid > 0 || removed > 0) await refreshProviderNames(db, clock.now());

  // Most origins publish no manifest, or answer with a page or a 402: routine, not a warning.
  const failedAt = spec.kind === "manifest" ? "debug" : "warn";
  if (c.malformed > 0)
    log[failedAt]({ source: spec.id, pollId, malformed: c.malformed, examples: collector.malformedExamples }, "catalog items skipped as malformed");
  if (held)
    log.warn(
      { source: spec.id, pollId, unattributable: c.unattributable, pages: c.garbagePages },
      "deactivation held: a page of malformed items names no readable resource",
    );
  if (outcome.failed)
    log[failedAt]({ source: spec.id, pollId, status: outcome.status, error: outcome.error, nextPollAt }, "catalog poll incomplete; source backs off");
  return {
    source,
    sourceId: spec.id,
    pollId,
    status: outcome.status,
    complete: pages.complete,
    pages: pages.pages,
    itemsSeen: c.seen,
    itemsValid: c.valid,
    itemsMalformed: c.malformed,
    added: c.inserted + c.reactivated,
    reactivated: c.reactivated,
    removed,
    updated: c.updated,
    error: outcome.error,
    durationMs: Math.round(performance.now() - started),
    nextPollAt,
  };
}
