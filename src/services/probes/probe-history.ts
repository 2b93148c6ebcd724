import { sql, type Kysely } from "kysely";
import type { Database, ProbeOutcome } from "../../db/schema.js";
import type { ProbeHistory } from "./confirm.js";
import { CONFIRM_PROBES } from "./constants.js";
import type { ProbeRecord } from "../evidence/index.js";

/**
 * Each result's history as the confirmation planner needs it: the newest stored outcomes with the
 * result's own in front, and the probes of the last interval. One statement per write batch, an
 * index range per listing; read in the write's transaction, before its probes are inserted.
 */
export async function probeHistories(db: Kysely<Database>, results: readonly ProbeRecord[], now: Date, intervalMs: number): Promise<ProbeHistory[]> {
  const ids = results.map((r) => r.listingId);
  const from = new Date(now.getTime() - intervalMs).toISOString();
  const { rows } = await sql<{ id: string | number; outcomes: ProbeOutcome[]; recent: number }>`
    select i.id,
           array(select outcome from probes p where p.listing_id = i.id order by probed_at desc limit ${CONFIRM_PROBES - 1}) as outcomes,
           (select count(*) from probes p where p.listing_id = i.id and p.probed_at > ${from}::timestamptz)::int as recent
    from unnest(${ids}::bigint[]) as i(id)`.execute(db);
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return results.map((r) => {
    const row = byId.get(r.listingId);
    return { outcomes: [r.outcome, ...(row?.outcomes ?? [])], inInterval: 1 + (row?.recent ?? 0) };
  });
}
