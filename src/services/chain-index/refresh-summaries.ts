import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { DAY } from "../signals/constants.js";

export interface SummaryInputs {
  network: string;
  /** Known facilitators' signer addresses, lower-case. */
  signers: readonly string[];
  /** This service's own paying wallets, lower-case: their payments are not use. */
  ownWallets: readonly string[];
  ghostListedMs: number;
  /** A payTo read to within this many blocks of the head is caught up: its zeros mean something. */
  caughtUpBlock: bigint;
  now: Date;
}

/** A payTo paid at least this often by one wallet only is self-dealing, not use. */
export const SELF_DEALING_MIN_CALLS = 2;

/**
 * Recomputes every active listing's settlement summary on `network` (settlementsOf's shape) in one
 * statement; listings whose payTo is still backfilling get null. Returns the listings whose summary changed.
 */
export async function refreshSettlementSummaries(db: Kysely<Database>, i: SummaryInputs): Promise<number[]> {
  const t = (ms: number) => new Date(i.now.getTime() - ms).toISOString();
  const { rows } = await sql<{ listing_id: string }>`
    with lp as (
      select l.id, lower(l.pay_to) as p, l.price_atomic, l.host, l.first_seen_at from listings l
      where l.is_active and l.network = ${i.network} and l.pay_to ~* '^0x[0-9a-f]{40}$'),
    pc as (select p, count(*)::int as listings, count(distinct host)::int as hosts, min(id) as only_id from lp group by p),
    prices as (select p, trim_scale(price_atomic) as price, count(*)::int as n, min(id) as listing_id from lp where price_atomic is not null group by 1, 2),
    keyed as (select lp.*, case when pc.listings = 1 or pr.n = 1 then lp.id::text when pr.n > 1 then 'a:' || lp.p || ':' || pr.price::text else 'p:' || lp.p end as k,
                case when pc.listings = 1 then 'listing' when pr.n = 1 then 'amount' else 'pay_to' end as attribution, pc.listings, pc.hosts
              from lp join pc using (p) left join prices pr on pr.p = lp.p and pr.price = trim_scale(lp.price_atomic)),
    s as (select cs.*, case when pc.listings = 1 then pc.only_id::text when pr.n = 1 then pr.listing_id::text
                            when pr.n > 1 then 'a:' || cs.pay_to || ':' || pr.price::text else 'p:' || cs.pay_to end as k,
                 pc.listings > 1 and pr.n is null as unattributed
          from chain_settlements cs join pc on pc.p = cs.pay_to left join prices pr on pr.p = cs.pay_to and pr.price = trim_scale(cs.amount_atomic)
          where cs.network = ${i.network} and not (cs.payer = any(${[...i.ownWallets]}::text[]))),
    per_p as (select pay_to as p, count(*)::int as calls, coalesce(sum(amount_atomic), 0) as volume, count(distinct payer)::int as payers,
                count(*) filter (where unattributed)::int as unattributed, bool_and(payer = pay_to) as only_self
              from s where settled_at > ${t(30 * DAY)}::timestamptz group by pay_to),
    per_k as (select k, count(*) filter (where settled_at > ${t(DAY)}::timestamptz)::int as c24, count(*) filter (where settled_at > ${t(7 * DAY)}::timestamptz)::int as c7,
                count(*) filter (where settled_at > ${t(30 * DAY)}::timestamptz)::int as c30,
                coalesce(sum(amount_atomic) filter (where settled_at > ${t(DAY)}::timestamptz), 0) as v24,
                coalesce(sum(amount_atomic) filter (where settled_at > ${t(7 * DAY)}::timestamptz), 0) as v7,
                coalesce(sum(amount_atomic) filter (where settled_at > ${t(30 * DAY)}::timestamptz), 0) as v30,
                count(distinct payer) filter (where settled_at > ${t(30 * DAY)}::timestamptz)::int as payers,
                count(*) filter (where settled_at > ${t(30 * DAY)}::timestamptz and sender = any(${[...i.signers]}::text[]))::int as known,
                min(settled_at) as first_at, max(settled_at) as last_at
              from s group by k),
    days as (select k, jsonb_agg(jsonb_build_object('day', d, 'calls', n, 'volume_usdc', trim_scale(v / 1000000)::text) order by d) as daily
             from (select k, to_char(date_trunc('day', settled_at at time zone 'UTC'), 'YYYY-MM-DD') as d, count(*)::int as n, sum(amount_atomic) as v
                   from s where settled_at > ${t(30 * DAY)}::timestamptz group by 1, 2) x group by k),
    out as (
      select keyed.id, case when py.synced_to is null or py.synced_to < ${i.caughtUpBlock.toString()}::bigint then null else (
        select jsonb_build_object(
          'attribution', keyed.attribution,
          'calls_24h', coalesce(k.c24, 0), 'calls_7d', coalesce(k.c7, 0), 'calls_30d', coalesce(k.c30, 0),
          'volume_usdc_24h', trim_scale(coalesce(k.v24, 0) / 1000000)::text, 'volume_usdc_7d', trim_scale(coalesce(k.v7, 0) / 1000000)::text,
          'volume_usdc_30d', trim_scale(coalesce(k.v30, 0) / 1000000)::text, 'distinct_payers_30d', coalesce(k.payers, 0),
          'first_settled_at', k.first_at, 'last_settled_at', k.last_at,
          'known_facilitator_share', case when coalesce(k.c30, 0) = 0 then null else round(k.known::numeric / k.c30, 4) end,
          'pay_to', jsonb_build_object('address', keyed.p, 'calls_30d', coalesce(pp.calls, 0), 'volume_usdc_30d', trim_scale(coalesce(pp.volume, 0) / 1000000)::text,
            'distinct_payers_30d', coalesce(pp.payers, 0), 'unattributed_calls_30d', coalesce(pp.unattributed, 0), 'listings', keyed.listings, 'hosts', keyed.hosts),
          'self_dealing', ${selfDealing},
          'used_30d', coalesce(k.c30, 0) > 0 and not ${selfDealing},
          'ghost_after', keyed.first_seen_at + make_interval(secs => ${i.ghostListedMs / 1000}),
          'daily', coalesce(d.daily, '[]'::jsonb),
          'indexed_from_block', py.from_block::text, 'indexed_to_block', py.synced_to::text)) end as settlements
      from keyed left join per_k k on k.k = keyed.k left join per_p pp on pp.p = keyed.p left join days d on d.k = keyed.k
      left join chain_payees py on py.network = ${i.network} and py.pay_to = keyed.p)
    update signal_snapshots ss set settlements = out.settlements from out
    where ss.listing_id = out.id and ss.settlements is distinct from out.settlements
    returning ss.listing_id::text`.execute(db);
  return rows.map((r) => Number(r.listing_id));
}

/** Self-dealing, per payTo: every payer is the payTo itself, or one wallet paid it SELF_DEALING_MIN_CALLS times or more. */
const selfDealing = sql`coalesce(pp.only_self or (pp.calls >= ${SELF_DEALING_MIN_CALLS} and pp.payers <= 1), false)`;
