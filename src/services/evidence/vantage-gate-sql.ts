import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { GateAction } from "./vantage-gate.js";

/** The gate's columns of a stored-verdict row (verdicts.ts selects them). */
export interface VantageColumns {
  last_vantage: string | null;
  last_probed_at: Date | string | null;
  confirm: { requested_by: string; requested_at: string; confirmed_at: string | null } | null;
}

/** The newest probe's vantage and time, and the listing's confirmation request (alias `l`: listings). */
export const vantageSelections = [
  sql<string | null>`(select vantage from probes where listing_id = l.id order by probed_at desc limit 1)`.as("last_vantage"),
  sql<Date | null>`(select probed_at from probes where listing_id = l.id order by probed_at desc limit 1)`.as("last_probed_at"),
  sql<VantageColumns["confirm"]>`(select jsonb_build_object('requested_by', c.requested_by, 'requested_at', c.requested_at, 'confirmed_at', c.confirmed_at)
    from vantage_confirmations as c where c.listing_id = l.id)`.as("confirm"),
] as const;

/** Opens (or renews) and drops the requests the gate decided, in key order like every writer. */
export async function applyGate(db: Kysely<Database>, gated: ReadonlyArray<{ row: { id: number }; gate: GateAction }>, now: Date): Promise<void> {
  const open = gated.filter((g) => g.gate.open !== null).sort((a, b) => a.row.id - b.row.id);
  const close = gated.filter((g) => g.gate.close).map((g) => g.row.id);
  if (open.length > 0) {
    await sql`insert into vantage_confirmations (listing_id, requested_by, requested_at)
      select * from unnest(${open.map((g) => g.row.id)}::bigint[], ${open.map((g) => g.gate.open!)}::text[]) as v(id, by), lateral (select ${now.toISOString()}::timestamptz) as t(at)
      on conflict (listing_id) do update set requested_by = excluded.requested_by, requested_at = excluded.requested_at,
        confirmed_by = null, confirmed_at = null, lease_owner = null, lease_until = null`.execute(db);
  }
  if (close.length > 0) await sql`delete from vantage_confirmations where listing_id = any(${close}::bigint[])`.execute(db);
}
