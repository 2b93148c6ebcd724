import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

/** PROBE_VANTAGE unset: every probe of a one-vantage deployment, and every row before 0028, is this. */
export const DEFAULT_VANTAGE = "default";
/** A vantage is live while its prober ran a cycle this recently (cycles run every few seconds). */
export const VANTAGE_LIVE_MS = 2 * 60_000;
/**
 * How long a critical flag raised by one vantage waits for another's probe before it is published
 * anyway (a live vantage that stalls must not hide a dead endpoint past the 3-minute bound).
 */
export const VANTAGE_CONFIRM_WAIT_MS = 60_000;
/** A confirmation probe's lease: its request is claimable again after this. */
export const VANTAGE_CONFIRM_LEASE_MS = 60_000;

/** Records that this vantage's prober runs (its liveness, decision 0048): the prober calls it, the verdict passes read it. */
export async function markVantageCycle(db: Kysely<Database>, name: string, at: Date): Promise<void> {
  await sql`insert into probe_vantages (name, last_cycle_at) values (${name}, ${at.toISOString()}::timestamptz)
    on conflict (name) do update set last_cycle_at = excluded.last_cycle_at`.execute(db);
}

/** How many vantages are live at `now`. */
export async function liveVantages(db: Kysely<Database>, now: Date): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from probe_vantages
    where last_cycle_at >= ${new Date(now.getTime() - VANTAGE_LIVE_MS).toISOString()}::timestamptz
      and last_cycle_at <= ${new Date(now.getTime() + VANTAGE_LIVE_MS).toISOString()}::timestamptz`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
