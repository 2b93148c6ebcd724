import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { addDays, DELIST, utcDay } from "./constants.js";
import { FLAGGED, flagReasons } from "./flag-reasons.js";
import { cdpSourceIds } from "./cdp-sources.js";

export interface FlaggedListing {
  url: string;
  method: string;
  reasons: string[];
  firstFlaggedAt: Date;
  /** Consecutive flagged UTC days up to today; today counts, since the listing is flagged now. */
  flaggedDaysConsecutive: number;
  uptime7dPct: number | null;
  l30dCalls: number;
  /** CDP's own catalog lists it now (a source on CDP's host, decision 0038). */
  cdpListed: boolean;
  /** What the chain shows of its use (decision 0052); null where its payTo is not indexed. */
  chain: ChainEvidence | null;
}

export interface ChainEvidence {
  settled_calls_30d: number;
  distinct_payers_30d: number;
  last_settled_at: string | null;
  self_dealing: boolean;
}

interface Row {
  url: string;
  method: string;
  l30d_calls: number | null;
  delist_reasons: string[];
  warnings: string[];
  flagged_since: Date | null;
  uptime_7d_pct: number | null;
  days_before: number | null;
  streak_started_at: Date | null;
  today_recorded_at: Date | null;
  cdp_listed: boolean;
  chain: ChainEvidence | null;
}

/**
 * Every active listing flagged now, with its current streak from the persisted history: the
 * consecutive days before today that have a flag_history row (found as the rows whose day plus
 * their recency rank equals today), plus today. The streak began at the earliest of the verdict's
 * flagged_since and the first recording of the streak's first day.
 */
export async function flaggedListings(db: Kysely<Database>, now: Date): Promise<FlaggedListing[]> {
  const today = utcDay(now);
  const oldest = addDays(today, -DELIST.streakLookbackDays);
  const cdp = JSON.stringify(await cdpSourceIds(db));
  const { rows } = await sql<Row>`
    with flagged as (
      -- cdp_l30d_calls: the catalog's counter where one exists, else the chain's settled calls (decision 0052).
      select l.id, l.url, l.url_normalized, l.method, coalesce(l.l30d_calls, (s.settlements ->> 'calls_30d')::int) as l30d_calls, s.delist_reasons, s.warnings, s.flagged_since, s.uptime_7d_pct,
        case when s.settlements is null then null else jsonb_build_object('settled_calls_30d', s.settlements -> 'calls_30d',
          'distinct_payers_30d', s.settlements -> 'distinct_payers_30d', 'last_settled_at', s.settlements -> 'last_settled_at',
          'self_dealing', s.settlements -> 'self_dealing') end as chain
      from signal_snapshots as s
      join listings as l on l.id = s.listing_id
      where l.is_active and ${FLAGGED}
    ),
    ranked as (
      select f.listing_id, f.day, f.recorded_at, row_number() over (partition by f.listing_id order by f.day desc) as rn
      from flag_history as f
      join flagged on flagged.id = f.listing_id
      where f.day < ${today}::date and f.day >= ${oldest}::date
    ),
    streak as (
      select listing_id, count(*)::int as days_before, min(recorded_at) as streak_started_at
      from ranked
      where day + rn::int = ${today}::date
      group by listing_id
    )
    select flagged.url, flagged.method, flagged.l30d_calls, flagged.chain, flagged.delist_reasons, flagged.warnings, flagged.flagged_since,
           flagged.uptime_7d_pct, streak.days_before, streak.streak_started_at, t.recorded_at as today_recorded_at,
           exists (select 1 from listing_sources as ls
                   where ls.listing_id = flagged.id and ls.listed and ls.source_id in (select jsonb_array_elements_text(${cdp}::jsonb))) as cdp_listed
    from flagged
    left join streak on streak.listing_id = flagged.id
    left join flag_history as t on t.listing_id = flagged.id and t.day = ${today}::date
    order by flagged.url_normalized, flagged.method`.execute(db);

  return rows.map((r) => {
    const daysBefore = r.days_before ?? 0;
    const starts = [r.flagged_since, daysBefore > 0 ? r.streak_started_at : null, r.today_recorded_at].filter((d): d is Date => d !== null);
    return {
      url: r.url,
      method: r.method,
      reasons: flagReasons(r.delist_reasons, r.warnings),
      firstFlaggedAt: starts.length > 0 ? new Date(Math.min(...starts.map((d) => new Date(d).getTime()))) : now,
      flaggedDaysConsecutive: daysBefore + 1,
      uptime7dPct: r.uptime_7d_pct,
      l30dCalls: r.l30d_calls ?? 0,
      cdpListed: r.cdp_listed,
      chain: r.chain,
    };
  });
}
