import { sql, type Kysely } from "kysely";
import type { Database, ProbeOutcome } from "../../db/schema.js";
import { HISTORY_DEPTH, type ProbeHistory } from "./confirm.js";
import type { ProbeRecord } from "../evidence/index.js";

/**
 * Each result's history as the confirmation planner needs it: the result's own outcome in front
 * of the newest stored answered (not `blocked`) ones. One statement per write batch, an index
 * range per listing; read in the write's transaction, before its probes are inserted.
 */
export async function probeHistories(db: Kysely<Database>, results: readonly ProbeRecord[]): Promise<ProbeHistory[]> {
  const ids = results.map((r) => r.listingId);
  const { rows } = await sql<{ id: string | number; outcomes: ProbeOutcome[] }>`
    select i.id,
           array(select outcome from probes p where p.listing_id = i.id and p.outcome <> 'blocked'
                 order by probed_at desc limit ${HISTORY_DEPTH - 1}) as outcomes
    from unnest(${ids}::bigint[]) as i(id)`.execute(db);
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return results.map((r) => ({ outcomes: [r.outcome, ...(byId.get(r.listingId)?.outcomes ?? [])] }));
}
