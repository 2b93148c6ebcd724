import { isDeepStrictEqual } from "node:util";
import { sql } from "kysely";
import type { DbHandle } from "../../db/client.js";
import { THRESHOLDS } from "./constants.js";
import { blacklistReasons, evaluate } from "./engine.js";
import { computeContexts, type SignalContext } from "./group-context.js";
import { selectListingRows, type ListingRow } from "./listing-row.js";
import { signalInput } from "./signal-input.js";

const WRITE_CHUNK = 2000;

/** ghost_listing (delist): alive, listed 30+ days, and nobody called it in 30 days. */
export const isGhost = (row: ListingRow, now: Date) =>
  row.last_outcome === "healthy" && now.getTime() - row.first_seen_at.getTime() >= THRESHOLDS.neverPaidListedMs && row.l30d_calls === 0;

/**
 * After each probe cycle: the verdict of every active listing from its snapshot and the
 * catalog-wide context (service health, group prices, markup references, effective counts).
 * Writes warnings, reasons and the context into signal_snapshots, so the request path and the
 * catalog products read one row instead of scanning; rows whose verdict and context did not
 * change are left alone. `db` may be a transaction of the handle's database (on PostgreSQL).
 */
export async function recomputeVerdicts(
  { db, generation }: Pick<DbHandle, "db" | "generation">,
  now: Date,
): Promise<{ listings: number; written: number; ms: number }> {
  const started = performance.now();
  const rows = await selectListingRows(db)
    .select(["s.warnings", "s.critical", "s.blacklist_reasons", "s.delist_reasons", "s.risk_score"])
    .where("l.is_active", "=", true)
    .execute();
  const contexts = computeContexts(rows);

  const verdicts = rows.map((row) => {
    const context = contexts.get(row.id)!;
    const verdict = evaluate(signalInput(row, context), now, "forensics");
    const blacklist = blacklistReasons(verdict.warnings);
    const delist = isGhost(row, now) && blacklist.length === 0 ? ["ghost_listing"] : blacklist;
    return {
      id: row.id,
      warnings: verdict.warnings,
      critical: !verdict.ok,
      blacklist,
      delist,
      risk: verdict.risk_score,
      flagged_since: delist.length === 0 ? null : (row.flagged_since ?? now).toISOString(),
      context,
    };
  });
  // Only what changed is written: between two recomputes most verdicts stay as they were.
  const updates = verdicts.filter((v, i) => !unchanged(rows[i]!, v));

  for (let i = 0; i < updates.length; i += WRITE_CHUNK) {
    const chunk = JSON.stringify(updates.slice(i, i + WRITE_CHUNK));
    await sql`
      insert into signal_snapshots (listing_id, computed_at, warnings, critical, blacklist_reasons, delist_reasons, risk_score, flagged_since, detail)
      select x.id, ${now.toISOString()}::timestamptz,
             array(select jsonb_array_elements_text(x.warnings)), x.critical,
             array(select jsonb_array_elements_text(x.blacklist)), array(select jsonb_array_elements_text(x.delist)),
             x.risk, x.flagged_since, jsonb_build_object('context', x.context)
      from jsonb_to_recordset(${chunk}::jsonb) as x(id bigint, warnings jsonb, critical boolean, blacklist jsonb, delist jsonb, risk float8, flagged_since timestamptz, context jsonb)
      on conflict (listing_id) do update set
        warnings = excluded.warnings, critical = excluded.critical,
        blacklist_reasons = excluded.blacklist_reasons, delist_reasons = excluded.delist_reasons,
        risk_score = excluded.risk_score, flagged_since = excluded.flagged_since,
        detail = signal_snapshots.detail || excluded.detail`.execute(db);
  }
  // A listing that left the catalog keeps its history but no longer counts as flagged.
  await db
    .updateTable("signal_snapshots")
    .set({ blacklist_reasons: [], delist_reasons: [], flagged_since: null })
    .where("listing_id", "in", (eb) => eb.selectFrom("listings").select("id").where("is_active", "=", false))
    .where("flagged_since", "is not", null)
    .execute();
  await generation.bump(db, now);
  return { listings: rows.length, written: updates.length, ms: Math.round(performance.now() - started) };
}

interface StoredVerdict extends ListingRow {
  warnings: string[] | null;
  critical: boolean | null;
  blacklist_reasons: string[] | null;
  delist_reasons: string[] | null;
  risk_score: number | null;
}

/** Whether the snapshot already holds this verdict (the context compared as the JSON it is stored as). */
function unchanged(
  row: StoredVerdict,
  v: { warnings: string[]; critical: boolean; blacklist: string[]; delist: string[]; risk: number; flagged_since: string | null; context: SignalContext },
): boolean {
  return (
    row.computed_at !== null &&
    row.critical === v.critical &&
    row.risk_score === v.risk &&
    (row.flagged_since?.toISOString() ?? null) === v.flagged_since &&
    isDeepStrictEqual(row.warnings, v.warnings) &&
    isDeepStrictEqual(row.blacklist_reasons, v.blacklist) &&
    isDeepStrictEqual(row.delist_reasons, v.delist) &&
    isDeepStrictEqual((row.detail as { context?: unknown } | null)?.context, JSON.parse(JSON.stringify(v.context)))
  );
}
