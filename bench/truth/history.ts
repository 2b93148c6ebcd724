import { sql } from "kysely";
import type { DbHandle } from "../../src/db/client.js";

/** A listing as the service saw it: when it was first listed, and every stored probe (oldest first). */
export interface ListingHistory {
  id: number;
  firstSeen: number;
  probes: Array<{ at: number; ok: boolean }>;
}

/** Read from the service's own tables after the run; the bench never writes probes. */
export async function readHistory(db: DbHandle): Promise<Map<string, ListingHistory>> {
  const listings = await sql<{ id: string; url: string; first_seen_at: Date }>`select id, url, first_seen_at from listings`.execute(db.db);
  const byId = new Map<number, ListingHistory>();
  const byUrl = new Map<string, ListingHistory>();
  for (const l of listings.rows) {
    const h = { id: Number(l.id), firstSeen: l.first_seen_at.getTime(), probes: [] };
    byId.set(h.id, h);
    byUrl.set(l.url, h);
  }
  const probes = await sql<{ listing_id: string; probed_at: Date; outcome: string }>`
    select listing_id, probed_at, outcome from probes order by listing_id, probed_at`.execute(db.db);
  for (const p of probes.rows) byId.get(Number(p.listing_id))?.probes.push({ at: p.probed_at.getTime(), ok: p.outcome === "healthy" });
  return byUrl;
}

/** The first probe at or after `from` (optionally only failed or only healthy ones). */
export function firstProbe(h: ListingHistory | undefined, from: number, ok?: boolean) {
  return h?.probes.find((p) => p.at >= from && (ok === undefined || p.ok === ok));
}

/** The third failure of the run of failed probes starting at `from`, if the run reached three. */
export function thirdFailure(h: ListingHistory | undefined, from: number): number | undefined {
  const run = h?.probes.filter((p) => p.at >= from) ?? [];
  let failures = 0;
  for (const p of run) {
    if (p.ok) return undefined;
    if (++failures === 3) return p.at;
  }
  return undefined;
}

export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** "median 92 s, p95 131 s, max 140 s (n 24)" over seconds. */
export function distribution(ms: readonly number[]): string {
  if (ms.length === 0) return "none measured";
  const s = [...ms].sort((a, b) => a - b).map((x) => x / 1000);
  return `median ${quantile(s, 0.5).toFixed(1)} s, p95 ${quantile(s, 0.95).toFixed(1)} s, max ${s.at(-1)!.toFixed(1)} s (n ${s.length})`;
}
