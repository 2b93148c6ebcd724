import { createGuardedDispatcher } from "../../lib/ssrf-guard.js";
import { LEASE_MARGIN_MS, MANIFEST_CONCURRENCY, MANIFEST_PATHS, MANIFEST_POLLS_PER_CYCLE, MANIFEST_TIMEOUT_MS } from "./constants.js";
import { manifestSources } from "./manifest-sources.js";
import { manifestWalk } from "./manifest-walk.js";
import { pollSource, type IngestDeps } from "./poll-source.js";
import { claimDueSources } from "./source-lease.js";
import type { CatalogSource } from "./source-spec.js";
import type { IngestOptions, PollSummary } from "./types.js";

// Both documents at their full timeout, and room for a Retry-After or two.
const BUDGET_MS = MANIFEST_TIMEOUT_MS * MANIFEST_PATHS.length + 20_000;

/**
 * The manifest half of a cycle: the origins the configured sources name become manifest
 * sources, and the due ones (a few per cycle, the longest due first) are polled a few at a time
 * with the same lease, backoff, records and retirement as any source. Addresses come from
 * catalogs, so every request goes through the SSRF guard.
 */
export async function pollManifests(deps: IngestDeps, configured: readonly CatalogSource[], opts: IngestOptions, signal?: AbortSignal): Promise<PollSummary[]> {
  if (opts.manifestCadenceMs <= 0 || signal?.aborted) return [];
  const now = deps.clock.now();
  const sources = await manifestSources(
    deps.db,
    configured.filter((s) => s.kind === "bazaar").map((s) => s.id),
    now,
  );
  const byId = new Map(sources.map((s) => [s.id, s]));
  const claimed = await claimDueSources(
    deps.db,
    [...byId.keys()],
    opts.owner,
    now,
    BUDGET_MS + LEASE_MARGIN_MS,
    opts.manifestCadenceMs,
    MANIFEST_POLLS_PER_CYCLE,
  );
  if (claimed.length === 0) return [];
  const dispatcher = createGuardedDispatcher({ allowPrivate: opts.allowPrivateTargets, connectTimeoutMs: MANIFEST_TIMEOUT_MS, connections: 2 });
  const summaries: PollSummary[] = [];
  const queue = [...claimed];
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const spec = byId.get(id)!;
      try {
        summaries.push(await pollSource(deps, spec, opts, signal, manifestWalk(spec.url, dispatcher, BUDGET_MS)));
      } catch (err) {
        deps.log.error({ source: id, err }, "catalog poll failed");
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(MANIFEST_CONCURRENCY, claimed.length) }, worker));
  } finally {
    await dispatcher.close();
  }
  return summaries.sort((a, b) => (a.sourceId < b.sourceId ? -1 : 1));
}
