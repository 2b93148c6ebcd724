import { sql, type Kysely } from "kysely";
import { asyncCommitCte } from "../../db/async-commit.js";
import { coalesce } from "../../db/coalesce.js";
import { executePrepared } from "../../db/prepared.js";
import type { Database } from "../../db/schema.js";
// eslint-disable-next-line import-x/no-restricted-paths -- wire types move to the contracts layer (issue 22)
import type { PreflightReport } from "../../http/routes/preflight/schemas.js";
import { TRIAL } from "../signals/constants.js";

interface Stored {
  urlNormalized: string;
  report: PreflightReport;
  at: Date;
}

/**
 * Trial answers are kept 300 s per URL (spec 8), in the database so API processes share them;
 * the trial quota statement reads them while it counts the call. The answers of one event-loop
 * turn are written by one statement (the last one per URL wins), rows in URL order so that
 * concurrent statements cannot deadlock.
 */
export function createTrialCacheStore(db: Kysely<Database>): (urlNormalized: string, report: PreflightReport, now: Date) => Promise<void> {
  const store = coalesce<Stored, void>(async (entries) => {
    // One JSON document for the batch: the reports go in as JSON once, not as text array elements escaped again.
    const given = JSON.stringify(entries.map((e, i) => ({ url: e.urlNormalized, report: e.report, at: e.at.toISOString(), ord: i })));
    await executePrepared(db, "trial-cache-store", sql`
      with ${asyncCommitCte},
      given as (
        select distinct on (url) url, report, at
        from jsonb_to_recordset(${given}::jsonb) as t(url text, report jsonb, at timestamptz, ord int)
        order by url, ord desc
      )
      insert into trial_cache (url_normalized, report, created_at, expires_at)
      select url, report, at, at + make_interval(secs => ${TRIAL.cacheSeconds}) from given, async_commit order by url
      on conflict (url_normalized) do update set report = excluded.report, created_at = excluded.created_at, expires_at = excluded.expires_at`.compile(db));
    return entries.map(() => undefined);
  });
  return (urlNormalized, report, now) => store({ urlNormalized, report, at: now });
}
