import { sql, type Kysely } from "kysely";
import type { Database } from "../../src/db/schema.js";

export interface SeedOptions {
  listings: number;
  /** Hours of probe_hourly history per listing (168 = 7 days). */
  historyHours: number;
  now: Date;
}

/**
 * A synthetic catalog at benchmark scale, written set-based in SQL: 10 listings per service,
 * 50 per provider, 100 per host, realistic spreads of price, uptime and latency, a few percent
 * decoys, dead and flapping endpoints, hourly history and the 1-hour raw probes the snapshot
 * needs. Verdicts are then computed by the real recompute code, not faked.
 */
export async function seedCatalog(db: Kysely<Database>, o: SeedOptions): Promise<void> {
  const now = o.now.toISOString();
  const n = o.listings;
  await sql`insert into services (service_id, name, origin, first_seen_at, last_seen_at)
    select 'svc-' || s, 'Service ' || s, 'https://h' || (s / 10) || '.bench.example', ${now}::timestamptz - interval '40 days', ${now}::timestamptz
    from generate_series(0, ${Math.ceil(n / 10) - 1}) s`.execute(db);
  await sql`insert into providers (provider_id, network, pay_to, name, first_seen_at)
    select 'eip155:84532:0x' || lpad(to_hex(p), 40, '0'), 'eip155:84532', '0x' || lpad(to_hex(p), 40, '0'), 'Provider ' || p, ${now}::timestamptz - interval '40 days'
    from generate_series(0, ${Math.ceil(n / 50) - 1}) p`.execute(db);
  await sql`insert into listings (url, url_normalized, method, service_id, provider_id, host, domain, category, tags, price_usdc, price_atomic,
      currency, network, source_url, first_seen_at, last_seen_at, l30d_calls, last_called_at, next_probe_at)
    select u, u, 'POST', 'svc-' || (i / 10), 'eip155:84532:0x' || lpad(to_hex(i / 50), 40, '0'), 'h' || (i / 100) || '.bench.example',
      'h' || (i / 100) || '.bench.example', (array['weather','ai','data','finance','geo','media','search','web'])[1 + i % 8],
      array['Tag' || (i % 8), 'bench'],
      price, price * 1000000, 'USDC', 'eip155:84532', 'https://catalog.bench.example/discovery/resources',
      ${now}::timestamptz - ((i % 60) || ' days')::interval, ${now}::timestamptz,
      case when i % 97 = 0 then 0 else 10 + i % 1000 end, case when i % 97 = 0 then null else ${now}::timestamptz - interval '2 hours' end,
      ${now}::timestamptz + interval '1 hour'
    from (select i, 'https://h' || (i / 100) || '.bench.example/api/' || i as u,
            case when i % 200 = 0 then 2500 when i % 150 = 0 then 25 else round((0.0005 + (i % 40) * 0.0005)::numeric, 4) end as price
          from generate_series(0, ${n - 1}) i) g`.execute(db);
  // Dead: id % 50 = 0; flapping (mostly dead over 7 days): id % 50 = 1; the rest healthy.
  await sql`insert into probe_hourly (listing_id, bucket, probes, healthy, errors, latency_count, latency_sum_ms, latency_max_ms, latency_hist, status_counts, price_usdc_last)
    select l.id, date_trunc('hour', ${now}::timestamptz) - (h || ' hours')::interval, 6, ok, 6 - ok, 6, 6 * lat, lat + 40,
      array[latency_bin(lat), 4, latency_bin(lat + 40), 2],
      case when ok = 6 then '{"402":6}'::jsonb when ok = 0 then '{"503":6}'::jsonb else jsonb_build_object('402', ok, '503', 6 - ok) end,
      l.price_usdc
    from (select id, price_usdc, case when id % 50 = 0 then 0 when id % 50 = 1 then 2 else 6 end as ok, (40 + (id % 200))::int as lat from listings) l,
      generate_series(0, ${o.historyHours - 1}) h`.execute(db);
  await sql`insert into probes (listing_id, probed_at, outcome, status_code, latency_ms, price_usdc, challenge_version)
    select l.id, ${now}::timestamptz - (k * 10 || ' minutes')::interval - interval '1 minute',
      case when l.id % 50 = 0 then 'error' else 'healthy' end, case when l.id % 50 = 0 then 503 else 402 end,
      (40 + (l.id % 200))::int, l.price_usdc, 2
    from listings l, generate_series(0, 5) k`.execute(db);
  // Every host was checked for wildcard-402 and SPA fallback yesterday (none is one); the next
  // checks are a day away, as in a service that has been running.
  await sql`insert into host_checks (host, wildcard_402_checked_at, spa_fallback_checked_at, next_check_at, updated_at)
    select distinct host, ${now}::timestamptz - interval '1 day', ${now}::timestamptz - interval '1 day', ${now}::timestamptz + interval '1 day', ${now}::timestamptz
    from listings`.execute(db);
  await sql`analyze`.execute(db);
}
