import { sql } from "kysely";
import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import { utcDay } from "./constants.js";
import { FLAGGED, flagReasons } from "./flag-reasons.js";

const WRITE_CHUNK = 2000;

/**
 * Persists today's flags: one flag_history row per flagged active listing and UTC day. Running
 * it again the same day adds reasons seen since, and keeps the first recorded_at (when the
 * listing was first seen flagged that day). Run it after each probe cycle or every few minutes.
 */
export async function recordDailyFlags(ctx: { db: DbHandle; clock: Clock }): Promise<{ day: string; flagged: number }> {
  const now = ctx.clock.now();
  const day = utcDay(now);
  const rows = await ctx.db.db
    .selectFrom("signal_snapshots as s")
    .innerJoin("listings as l", "l.id", "s.listing_id")
    .select(["s.listing_id", "s.delist_reasons", "s.warnings"])
    .where("l.is_active", "=", true)
    .where(FLAGGED)
    .execute();
  const flags = rows.map((r) => ({ id: Number(r.listing_id), reasons: flagReasons(r.delist_reasons, r.warnings) })).filter((f) => f.reasons.length > 0);
  for (let i = 0; i < flags.length; i += WRITE_CHUNK) {
    const chunk = JSON.stringify(flags.slice(i, i + WRITE_CHUNK));
    await sql`
      insert into flag_history (listing_id, day, reasons, recorded_at)
      select x.id, ${day}::date, array(select jsonb_array_elements_text(x.reasons)), ${now.toISOString()}::timestamptz
      from jsonb_to_recordset(${chunk}::jsonb) as x(id bigint, reasons jsonb)
      on conflict (listing_id, day) do update set
        reasons = array(select distinct r from unnest(flag_history.reasons || excluded.reasons) as r order by r)`.execute(ctx.db.db);
  }
  return { day, flagged: flags.length };
}
