import { adoptRenamedSources } from "./adopt-sources.js";
import { LEASE_MARGIN_MS } from "./constants.js";
import { recordCycle, type IngestMetrics } from "./ingest-metrics.js";
import { pollManifests } from "./manifest-cycle.js";
import { pollSource, type IngestDeps } from "./poll-source.js";
import { retireStaleSources } from "./retire-listings.js";
import { claimDueSources, registerSources } from "./source-lease.js";
import { sourcesOf, type CatalogSource } from "./source-spec.js";
import type { IngestOptions, PollSummary } from "./types.js";

const sum = (xs: readonly PollSummary[], f: (s: PollSummary) => number) => xs.reduce((n, s) => n + f(s), 0);

/**
 * One ingest cycle: register the configured sources (a renamed one keeps its row), claim the due ones nobody else holds,
 * poll each, then the due origin manifests they name, retire what only sources past their grace still list, then log one summary line
 * and update the metrics. A source that throws (its database writes failed) is logged; its
 * lease expires and another cycle retries it.
 */
export async function runIngestCycle(
  deps: IngestDeps,
  entries: ReadonlyArray<string | CatalogSource>,
  opts: IngestOptions,
  metrics?: IngestMetrics,
  signal?: AbortSignal,
): Promise<PollSummary[]> {
  const started = performance.now();
  const now = deps.clock.now();
  const sources = sourcesOf(entries);
  const byId = new Map(sources.map((s) => [s.id, s]));
  // A renamed entry (same URL) keeps its source: logged, since it changes which id polls record.
  for (const a of await adoptRenamedSources(deps.db, sources))
    deps.log.info({ source: a.to, was: a.from, url: a.url }, "catalog source renamed in place: same URL, its listings and polls kept");
  await registerSources(deps.db, sources, now);
  const claimed = await claimDueSources(deps.db, [...byId.keys()], opts.owner, now, opts.pollBudgetMs + LEASE_MARGIN_MS, opts.cadenceMs);
  const summaries: PollSummary[] = [];
  let failedWrites = 0;
  for (const id of claimed) {
    try {
      summaries.push(await pollSource(deps, byId.get(id)!, opts, signal));
    } catch (err) {
      failedWrites++;
      deps.log.error({ source: id, err }, "catalog poll failed");
    }
  }
  const manifests = await pollManifests(deps, sources, opts, signal);
  const retired = await retireStaleSources(deps.db, deps.clock.now(), opts.sourceGraceMs);
  const seconds = (performance.now() - started) / 1000;
  if (metrics) recordCycle(metrics, [...summaries, ...manifests], seconds, retired);
  deps.log.info(
    {
      sources: sources.length,
      polled: summaries.length,
      complete: summaries.filter((s) => s.complete).length,
      failed: summaries.filter((s) => !s.complete).length + failedWrites,
      listings_seen: sum(summaries, (s) => s.itemsValid),
      added: sum(summaries, (s) => s.added),
      removed: sum(summaries, (s) => s.removed),
      retired,
      updated: sum(summaries, (s) => s.updated),
      malformed: sum(summaries, (s) => s.itemsMalformed),
      manifests_polled: manifests.length,
      manifests_complete: manifests.filter((s) => s.complete).length,
      manifest_listings: sum(manifests, (s) => s.itemsValid),
      duration_ms: Math.round(seconds * 1000),
    },
    "ingest cycle",
  );
  return [...summaries, ...manifests];
}
