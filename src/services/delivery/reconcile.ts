import { sql, type Kysely } from "kysely";
import { deleteOlderThan } from "../../db/retention.js";
import type { Database } from "../../db/schema.js";
import type { Logger } from "../../lib/log.js";
import type { ChainReader } from "../payments/chain-outcome.js";
import { refreshListing, settleCheck } from "./settle.js";
import { DELIVERY_RETENTION_MS } from "./summary.js";

/** Longer than any check runs (CHECK_RUN_MS) with a margin: an open check older than this has no runner. */
export const CHECK_MAX_MS = 90_000;
const BATCH = 50;

/**
 * Resolves the open checks no runner holds any more (a crash, a shutdown, a payment not yet on
 * chain) from the chain, refreshes the summaries of listings whose checks just left the 30-day
 * window, and deletes checks past it (a batch a tick: open ones are kept). Any canary process may run it: settleCheck moves a row once.
 */
export async function reconcileChecks(deps: { db: Kysely<Database>; chain: ChainReader; log: Logger }, now: Date): Promise<number> {
  const stale = new Date(now.getTime() - CHECK_MAX_MS);
  const open = await deps.db
    .selectFrom("delivery_checks")
    .select("id")
    .where("state", "<>", "done")
    .where("started_at", "<", stale)
    .orderBy("started_at")
    .limit(BATCH)
    .execute();
  let done = 0;
  for (const { id } of open) if (await settleCheck(deps, id, now)) done++;
  if (done > 0) deps.log.info({ done, open: open.length }, "canary: open checks resolved from the chain");
  await refreshAgedOut(deps.db, now);
  await deleteOlderThan(deps.db, "delivery_checks", new Date(now.getTime() - DELIVERY_RETENTION_MS), { maxBatches: 1 });
  return done;
}

// A summary counts 30 days: a listing whose newest counted check is about to leave them is recounted.
async function refreshAgedOut(db: Kysely<Database>, now: Date): Promise<void> {
  const edge = new Date(now.getTime() - DELIVERY_RETENTION_MS).toISOString();
  const { rows } = await sql<{ listing_id: string }>`
    select s.listing_id from signal_snapshots s
    where s.delivery is not null and (s.delivery ->> 'checked_at')::timestamptz <= ${edge}::timestamptz limit ${BATCH}`.execute(db);
  for (const r of rows) await refreshListing(db, Number(r.listing_id), now);
}
