-- Evidence: raw probes (hours), hourly rollups (8+ days), host checks, the per-listing signal
-- snapshot the hot path reads, and the daily flag history behind the delist feed.
-- Sizing, retention and partitioning: docs/storage.md.

-- Latency bin of src/db/latency-histogram.ts binOf(), for rollups done in SQL. The thresholds
-- are that module's BIN_LOWER_BOUNDS without the leading 0; a test keeps the two identical.
create function latency_bin(ms integer) returns integer
language sql immutable strict parallel safe
as $$
  select width_bucket(greatest(ms, 0), '{
    1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,
    33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,53,56,59,62,65,68,71,74,77,80,
    83,86,89,92,95,98,101,105,110,115,120,125,130,135,140,145,150,156,163,170,177,184,191,
    198,205,213,222,231,240,249,259,270,281,292,303,315,328,341,354,368,383,398,414,431,448,
    466,485,504,524,545,567,590,613,637,662,688,715,743,773,804,836,869,903,939,977,1016,1056,
    1098,1142,1188,1236,1286,1338,1392,1448,1506,1566,1628,1692,1759,1829,1902,1978,2057,2139,
    2224,2313,2405,2500,2599,2702,2809,2920,3036,3157,3282,3412,3548,3689,3835,3987,4145,4310,
    4482,4660,4845,5038,5239,5448,5665,5890,6124,6368,6622,6886,7160,7445,7741,8048,8368,8701,
    9047,9407,9781,10170,10575,10996,11433,11887,12360,12852,13363,13894,14446,15020,15617,
    16238,16884,17556,18254,18980,19735,20520,21337,22186,23068,23985,24939,25931,26962,28034,
    29149,30309,31515,32768,34071,35426,36835,38300,39823,41407,43054,44766,46546,48397,50322,
    52324,54405,56569,58819,61158,63591,66121,68751,71485,74328,77285,80360,83557,86881,90337,
    93930,97666,101551,105591,109791,114158,118699
  }'::integer[])
$$;

-- Append-only, about 600k rows an hour at 100k listings; kept a few hours (30 min and 1 h
-- windows, plus re-rolling the open hour). Deleted in bounded batches by probed_at.
create table probes (
  listing_id        bigint not null references listings (id) on delete cascade,
  probed_at         timestamptz not null,
  outcome           text not null check (outcome in ('healthy', 'error')),
  -- null: no HTTP response (network error, timeout, TLS); error_kind says which.
  status_code       integer,
  error_kind        text,
  latency_ms        integer check (latency_ms >= 0),
  price_usdc        numeric check (price_usdc >= 0),
  challenge_version smallint
);
create index probes_listing_id_probed_at_idx on probes (listing_id, probed_at desc);
create index probes_probed_at_idx on probes (probed_at);

-- One row per listing per UTC hour; about 2.4M rows a day, kept at least 8 days.
create table probe_hourly (
  listing_id      bigint not null references listings (id) on delete cascade,
  bucket          timestamptz not null check (bucket = date_trunc('hour', bucket, 'UTC')),
  probes          integer not null check (probes >= 0),
  healthy         integer not null check (healthy >= 0),
  errors          integer not null check (errors >= 0),
  latency_count   integer not null default 0 check (latency_count >= 0),
  latency_sum_ms  bigint not null default 0 check (latency_sum_ms >= 0),
  latency_max_ms  integer,
  -- Sparse [bin, count, ...] pairs; see src/db/latency-histogram.ts.
  latency_hist    integer[] not null default '{}',
  -- HTTP status (or 'network_error') -> count.
  status_counts   jsonb not null default '{}',
  price_usdc_last numeric,
  price_usdc_min  numeric,
  price_usdc_max  numeric,
  primary key (listing_id, bucket),
  check (healthy + errors = probes),
  check (latency_count <= probes)
);
create index probe_hourly_bucket_idx on probe_hourly (bucket);

-- Per host, once a day: does it answer random paths with an x402 challenge or an HTML shell?
create table host_checks (
  host                    text primary key,
  wildcard_402_detected   boolean not null default false,
  wildcard_402_checked_at timestamptz,
  spa_fallback_detected   boolean not null default false,
  spa_fallback_checked_at timestamptz,
  effective_count         integer check (effective_count >= 0),
  effective_count_basis   text check (effective_count_basis in ('sitemap_url_count', 'manifest_resource_count', 'canonical_homepage')),
  sitemap_url_count       integer check (sitemap_url_count >= 0),
  manifest_resource_count integer check (manifest_resource_count >= 0),
  evidence                jsonb not null default '{}',
  next_check_at           timestamptz not null default now(),
  lease_owner             text,
  lease_until             timestamptz,
  last_error              text,
  updated_at              timestamptz not null default now()
);
create index host_checks_next_check_at_idx on host_checks (next_check_at);
create index host_checks_wildcard_402_idx on host_checks (host) where wildcard_402_detected;
create index host_checks_spa_fallback_idx on host_checks (host) where spa_fallback_detected;

-- The latest verdict inputs of a listing, recomputed after each probe cycle. Preflight reads
-- one row; the catalog products filter and sort on the typed columns; the rest is in detail.
create table signal_snapshots (
  listing_id          bigint primary key references listings (id) on delete cascade,
  computed_at         timestamptz not null,
  warnings            text[] not null default '{}',
  critical            boolean not null default false,
  probes_30m          integer not null default 0,
  healthy_30m         integer not null default 0,
  errors_30m          integer not null default 0,
  probes_1h           integer not null default 0,
  healthy_1h          integer not null default 0,
  probes_7d           integer not null default 0,
  healthy_7d          integer not null default 0,
  -- Percentages are measurements, not money: double precision, rounded when presented.
  uptime_1h_pct       double precision,
  uptime_48h_pct      double precision,
  uptime_7d_pct       double precision,
  avg_latency_1h_ms   integer,
  p50_latency_7d_ms   integer,
  p90_latency_7d_ms   integer,
  p99_latency_7d_ms   integer,
  max_latency_7d_ms   integer,
  last_probe_at       timestamptz,
  last_outcome        text check (last_outcome in ('healthy', 'error')),
  last_status_code    integer,
  -- Subset of decoy_price_extreme, zombie, dead_7d, mostly_dead.
  blacklist_reasons   text[] not null default '{}',
  -- blacklist_reasons plus ghost_listing; non-empty means "should delist".
  delist_reasons      text[] not null default '{}',
  -- Start of the current flagged streak; null while not flagged.
  flagged_since       timestamptz,
  risk_score          double precision,
  detail              jsonb not null default '{}'
) with (fillfactor = 70); -- rewritten every cycle: free room keeps those updates HOT
create index signal_snapshots_blacklisted_idx on signal_snapshots (listing_id) where blacklist_reasons <> '{}';
create index signal_snapshots_delist_idx on signal_snapshots (listing_id) where delist_reasons <> '{}';
create index signal_snapshots_critical_idx on signal_snapshots (listing_id) where critical;

-- One row per flagged listing per UTC day; consecutive days give flagged_days_consecutive.
create table flag_history (
  listing_id  bigint not null references listings (id) on delete cascade,
  day         date not null,
  reasons     text[] not null check (reasons <> '{}'),
  recorded_at timestamptz not null default now(),
  primary key (listing_id, day)
);
create index flag_history_day_idx on flag_history (day);
