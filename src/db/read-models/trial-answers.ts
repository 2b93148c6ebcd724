import { sql } from "kysely";
import { asyncCommitCte } from "../async-commit.js";
import type { DbHandle } from "../client.js";
import { coalesce } from "../coalesce.js";

interface Stored<A> {
  urlNormalized: string;
  answer: A;
  at: Date;
}

/**
 * Stores trial answers for `cacheSeconds` per URL, in the database so API processes share them
 * (the trial counting statement reads them while it counts a call). The answers of one
 * event-loop turn are written by one prepared statement (the last one per URL wins), rows in URL
 * order so that concurrent statements cannot deadlock.
 */
export function createTrialAnswerStore<A>(
  handle: Pick<DbHandle, "db" | "prepared">,
  cacheSeconds: number,
): (urlNormalized: string, answer: A, at: Date) => Promise<void> {
  const store = coalesce<Stored<A>, void>(async (entries) => {
    // One JSON document for the batch: the answers go in as JSON once, not as text array elements escaped again.
    const given = JSON.stringify(entries.map((e, i) => ({ url: e.urlNormalized, report: e.answer, at: e.at.toISOString(), ord: i })));
    await handle.prepared.execute(
      "trial-cache-store",
      sql`
      with ${asyncCommitCte},
      given as (
        select distinct on (url) url, report, at
        from jsonb_to_recordset(${given}::jsonb) as t(url text, report jsonb, at timestamptz, ord int)
        order by url, ord desc
      )
      insert into trial_cache (url_normalized, report, created_at, expires_at)
      select url, report, at, at + make_interval(secs => ${cacheSeconds}) from given, async_commit order by url
      on conflict (url_normalized) do update set report = excluded.report, created_at = excluded.created_at, expires_at = excluded.expires_at`.compile(
        handle.db,
      ),
    );
    return entries.map(() => undefined);
  });
  return (urlNormalized, answer, at) => store({ urlNormalized, answer, at });
}
