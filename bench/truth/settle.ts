import { Readable } from "node:stream";
import { sql } from "kysely";
import type { AppContext } from "../../src/context.js";
import { ingestOptions } from "../../src/services/index.js";
import { phaseMs } from "../../src/services/probes/slots.js";
import { recomputeSnapshots } from "../../src/services/evidence/index.js";
import { isDown } from "./hosts.js";
import type { BenchFleet } from "./fleet.js";

/** Probes of history each settled endpoint has before the run: one hour at the slot cadence. */
const HISTORY_PROBES = 6;

/** The latest slot of a listing at or before `t`. */
export const slotAtOrBefore = (id: number, t: number, intervalMs: number) => {
  const phase = phaseMs(id, intervalMs);
  return Math.floor((t - phase) / intervalMs) * intervalMs + phase;
};

/**
 * Steady state before the run, so the extra-load figure is about changes, not first sight: the
 * service ingests the bench catalog, imports an hour of history for every endpoint (through the
 * operator's probe import, one probe per slot, agreeing with the endpoint's state), and each
 * listing's next probe is put on its next slot. Snapshots and verdicts are then computed by the
 * service's own code. Returns the listing id of every bench URL.
 */
export async function settleFleet(ctx: AppContext, fleet: BenchFleet, catalogPollSeconds: number): Promise<Map<string, number>> {
  await ctx.services.catalog.ingest({ sources: [fleet.catalogUrl], opts: ingestOptions(catalogPollSeconds), log: ctx.log });
  const { rows } = await sql<{ id: string; url: string }>`select id, url from listings where is_active`.execute(ctx.db.db);
  const ids = new Map(rows.map((r) => [r.url, Number(r.id)]));
  const intervalMs = ctx.config.probeIntervalSeconds * 1000;
  const now = Date.now();
  const lines: string[] = [];
  const next: Array<[number, string]> = [];
  for (const e of fleet.endpoints) {
    const id = ids.get(e.url);
    if (id === undefined) throw new Error(`the service did not list ${e.url}`);
    const last = slotAtOrBefore(id, now, intervalMs);
    const down = isDown(e.timeline[0]!.state);
    for (let k = 0; k < HISTORY_PROBES; k++) {
      const at = new Date(last - k * intervalMs).toISOString();
      const probe = down ? { status: 500, latency_ms: 40, price_usdc: null } : { status: 402, latency_ms: 45, price_usdc: null };
      lines.push(JSON.stringify({ url: e.url, method: e.method, at, ...probe }) + "\n");
    }
    next.push([id, new Date(last + intervalMs).toISOString()]);
  }
  const report = await ctx.services.catalog.importProbes(Readable.from(lines));
  if (!report.committed || report.imported !== lines.length) throw new Error(`history import: ${JSON.stringify(report)}`);
  await sql`update listings l set next_probe_at = x.at from unnest(${next.map(([id]) => id)}::bigint[], ${next.map(([, at]) => at)}::timestamptz[]) as x(id, at)
    where l.id = x.id`.execute(ctx.db.db);
  await recomputeSnapshots(ctx);
  await ctx.services.verdicts.recompute();
  return ids;
}
