import { sql, type Kysely } from "kysely";
import { asyncCommitCte } from "../../db/async-commit.js";
import { executePrepared } from "../../db/prepared.js";
import type { Database } from "../../db/schema.js";
import type { PreflightReport } from "../../http/routes/preflight/schemas.js";
import { TRIAL } from "../signals/constants.js";

/**
 * Trial answers are kept 300 s per URL (spec 8), in the database so API processes share them;
 * consumeTrialCall reads them in the statement that counts the call.
 */
export async function storeTrialReport(db: Kysely<Database>, urlNormalized: string, report: PreflightReport, now: Date): Promise<void> {
  const expires = new Date(now.getTime() + TRIAL.cacheSeconds * 1000);
  await executePrepared(db, "trial-cache-store", sql`
    with ${asyncCommitCte}
    insert into trial_cache (url_normalized, report, created_at, expires_at)
    select ${urlNormalized}, ${JSON.stringify(report)}::jsonb, ${now.toISOString()}::timestamptz, ${expires.toISOString()}::timestamptz from async_commit
    on conflict (url_normalized) do update set report = excluded.report, created_at = excluded.created_at, expires_at = excluded.expires_at`.compile(db));
}
