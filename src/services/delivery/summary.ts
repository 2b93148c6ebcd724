import { sql, type Kysely } from "kysely";
import { atomicToUsdc } from "@x402-lookout/contracts/usdc";
import type { Database, DeliveryOutcome } from "../../db/schema.js";
import { DAY } from "../signals/constants.js";

/** Outcomes of a check that paid (the chain took the money): what paid_no_delivery and invalid_output judge. */
export const SETTLED_OUTCOMES: readonly DeliveryOutcome[] = ["delivered", "invalid_output", "undelivered", "refused_after_payment"];
/** Checks kept (evidence for disputes) and counted (checks_30d). */
export const DELIVERY_RETENTION_MS = 30 * DAY;

/**
 * A listing's paid checks summed up, stored on its snapshot (signal_snapshots.delivery) with each
 * check: the products' `delivery` object (checked_at .. last_delivered_at, check_id) and the rule's
 * input (`settled`: the newest check that paid). Skipped and interrupted checks say nothing about
 * the endpoint: they are not counted.
 */
export interface DeliverySummary {
  checked_at: string | null;
  outcome: DeliveryOutcome | null;
  paid_usdc: string | null;
  tx: string | null;
  checks_30d: number;
  delivered_30d: number;
  last_delivered_at: string | null;
  /** The newest check's id: its signed evidence is GET /api/v1/delivery-checks/{id}. */
  check_id: string | null;
  settled: { outcome: DeliveryOutcome; at: string; check_id: string } | null;
  /** Payers' accepted reports (decision 0052): counts over 30 days, and each payer's newest vote over 7. */
  payers?: PayerReports | null;
}

export interface PayerReports {
  reports_30d: number;
  failures_30d: number;
  /** Distinct payers whose newest report within 7 days says undelivered or refused_after_payment. */
  failed_payers_7d: number;
  delivered_payers_7d: number;
  newest_at: string | null;
}

type Row = {
  listing_id: string;
  checks_30d: number;
  delivered_30d: number;
  last_delivered_at: Date | null;
  last: { id: string; started_at: string; outcome: DeliveryOutcome; spent_atomic: string; tx: string | null } | null;
  settled: { id: string; started_at: string; outcome: DeliveryOutcome } | null;
  payers: PayerReports;
};

const iso = (t: string | Date) => new Date(t).toISOString();

/** Each payer's newest report on the listing within 7 days of settlement: one vote per wallet. */
const votesOf = (week: string) =>
  sql`(select distinct on (payer) payer, outcome from outcome_reports where listing_id = l.id and settled_at > ${week}::timestamptz order by payer, accepted_at desc)`;

/** Recomputes the summaries of `listingIds` from their checks of the last 30 days and stores them; returns how many it wrote. */
export async function refreshDeliverySummaries(db: Kysely<Database>, listingIds: readonly number[], now: Date): Promise<number> {
  if (listingIds.length === 0) return 0;
  const ids = sql`${[...listingIds]}::bigint[]`;
  const since = new Date(now.getTime() - DELIVERY_RETENTION_MS).toISOString();
  const votes = votesOf(new Date(now.getTime() - 7 * DAY).toISOString());
  const counted = sql`listing_id = any(${ids}) and state = 'done' and outcome is not null and outcome not in ('skipped', 'interrupted') and started_at > ${since}::timestamptz`;
  const { rows } = await sql<Row>`
    select l.id::text as listing_id,
      (select count(*)::int from delivery_checks where ${counted} and listing_id = l.id) as checks_30d,
      (select count(*)::int from delivery_checks where ${counted} and listing_id = l.id and outcome = 'delivered') as delivered_30d,
      (select max(started_at) from delivery_checks where ${counted} and listing_id = l.id and outcome = 'delivered') as last_delivered_at,
      (select jsonb_build_object('id', id, 'started_at', started_at, 'outcome', outcome, 'spent_atomic', spent_atomic::text, 'tx', tx)
         from delivery_checks where ${counted} and listing_id = l.id order by started_at desc limit 1) as last,
      (select jsonb_build_object('id', id, 'started_at', started_at, 'outcome', outcome)
         from delivery_checks where ${counted} and listing_id = l.id and outcome = any(${[...SETTLED_OUTCOMES]}::text[]) order by started_at desc limit 1) as settled,
      (select jsonb_build_object('reports_30d', count(*), 'failures_30d', count(*) filter (where r.outcome <> 'delivered'), 'newest_at', max(r.accepted_at),
          'failed_payers_7d', (select count(*) filter (where v.outcome in ('undelivered', 'refused_after_payment')) from ${votes} v),
          'delivered_payers_7d', (select count(*) filter (where v.outcome = 'delivered') from ${votes} v))
         from outcome_reports r where r.listing_id = l.id and r.accepted_at > ${since}::timestamptz) as payers
    from listings l where l.id = any(${ids})`.execute(db);
  const summaries = rows.map((r) => ({ id: Number(r.listing_id), delivery: r.last || r.payers.reports_30d > 0 ? summaryOf(r) : null }));
  const { numAffectedRows } = await sql`
    update signal_snapshots s set delivery = x.delivery
    from jsonb_to_recordset(${JSON.stringify(summaries)}::jsonb) as x(id bigint, delivery jsonb)
    where s.listing_id = x.id and s.delivery is distinct from x.delivery`.execute(db);
  return Number(numAffectedRows ?? 0);
}

function summaryOf(r: Row): DeliverySummary {
  const last = r.last;
  return {
    checked_at: last ? iso(last.started_at) : null,
    outcome: last?.outcome ?? null,
    paid_usdc: last ? atomicToUsdc(last.spent_atomic) : null,
    tx: last?.tx ?? null,
    checks_30d: r.checks_30d,
    delivered_30d: r.delivered_30d,
    last_delivered_at: r.last_delivered_at ? iso(r.last_delivered_at) : null,
    check_id: last?.id ?? null,
    settled: r.settled ? { outcome: r.settled.outcome, at: iso(r.settled.started_at), check_id: r.settled.id } : null,
    payers: r.payers.reports_30d > 0 ? { ...r.payers, newest_at: r.payers.newest_at ? iso(r.payers.newest_at) : null } : null,
  };
}

/** The summary a report row carries (null: never checked, or stored by an older version). */
export const deliveryOf = (row: { delivery?: unknown }): DeliverySummary | null =>
  row.delivery && typeof row.delivery === "object" && "checks_30d" in row.delivery ? (row.delivery as DeliverySummary) : null;
