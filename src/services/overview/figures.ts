import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

/** The service at a glance, as the landing page shows it (docs/decisions/0024-explorer-free-and-paid.md). */
export interface OverviewFigures {
  /** Active catalog listings: the endpoints the prober watches. */
  watched: number;
  /** Active listings whose stored preflight verdict is not ok. */
  flagged: number;
  /** Active listings per warning code of their stored preflight verdict, most frequent first. */
  byCode: { code: string; count: number }[];
  /** Probes made in the hour before `at`. */
  probesLastHour: number;
  newestVerdictAt: Date | null;
  newestPollAt: Date | null;
  /** When these figures were read. */
  at: Date;
}

const HOUR_MS = 3_600_000;

/** Two statements over the stored verdicts (signal_snapshots), probes and catalog polls; no rule is evaluated here. */
export async function readOverview(db: Kysely<Database>, at: Date): Promise<OverviewFigures> {
  const hourAgo = new Date(at.getTime() - HOUR_MS).toISOString();
  const [totals, codes] = await Promise.all([
    sql<{ watched: number; flagged: number; probes: number; verdict_at: Date | null; poll_at: Date | null }>`
      select
        (select count(*)::int from listings where is_active) as watched,
        (select count(*)::int from signal_snapshots s join listings l on l.id = s.listing_id
          where l.is_active and s.feed->>'ok' = 'false') as flagged,
        (select count(*)::int from probes where probed_at > ${hourAgo}::timestamptz and outcome <> 'blocked') as probes,
        (select max(computed_at) from signal_snapshots) as verdict_at,
        (select max(finished_at) from catalog_polls
          where source_id in (select id from catalog_sources where kind = 'bazaar')) as poll_at`.execute(db),
    // The preflight view's codes (signal_snapshots.feed): the ones the endpoint list filters by.
    sql<{ code: string; n: number }>`
      select w as code, count(*)::int as n
        from signal_snapshots s join listings l on l.id = s.listing_id, jsonb_array_elements_text(s.feed->'warnings') as w
        where l.is_active group by w order by n desc, w`.execute(db),
  ]);
  const t = totals.rows[0]!;
  return {
    watched: t.watched,
    flagged: t.flagged,
    byCode: codes.rows.map((r) => ({ code: r.code, count: r.n })),
    probesLastHour: t.probes,
    newestVerdictAt: t.verdict_at && new Date(t.verdict_at),
    newestPollAt: t.poll_at && new Date(t.poll_at),
    at,
  };
}
