-- Two probe outcomes beside healthy and error (decision 0037): `blocked`, a target the SSRF guard
-- refused (no request was sent), and `unchallenged`, a paid listing that answered 2xx without an
-- x402 challenge. Neither counts in uptime, the healthy/error counts, fail streaks or latency.

-- The wider check holds for every stored row, so it is added unvalidated and validated after
-- (validation reads the table without blocking writes; raw probes are kept only hours).
alter table probes drop constraint probes_outcome_check;
alter table probes add constraint probes_outcome_check
  check (outcome in ('healthy', 'error', 'blocked', 'unchallenged')) not valid;
alter table probes validate constraint probes_outcome_check;

-- last_outcome is the newest probe that reached the endpoint: a refused one never is.
alter table signal_snapshots drop constraint signal_snapshots_last_outcome_check;
alter table signal_snapshots add constraint signal_snapshots_last_outcome_check
  check (last_outcome in ('healthy', 'error', 'unchallenged'));

alter table signal_snapshots
  add column unchallenged_1h integer not null default 0 check (unchallenged_1h >= 0),
  add column last_refused_at timestamptz;
-- /readyz counts listings whose newest probe was refused: few rows, or none, on a public deployment.
create index signal_snapshots_refused_idx on signal_snapshots (last_refused_at) where last_refused_at is not null;

-- Refusals stored as errors before this migration: reclassified, and taken back out of the hourly
-- buckets their raw rows still cover (older buckets keep them until they age out after 8 days).
create temporary table refused_0025 on commit drop as
  select listing_id, date_trunc('hour', probed_at, 'UTC') as bucket, count(*)::int as n
  from probes
  where outcome = 'error' and error_kind = 'ssrf_blocked'
  group by 1, 2;
delete from probe_hourly as h
using refused_0025 as r
where h.listing_id = r.listing_id and h.bucket = r.bucket and h.probes = r.n and h.errors = r.n;
update probe_hourly as h
set probes = h.probes - r.n,
    errors = h.errors - r.n,
    status_counts = case when coalesce((h.status_counts ->> 'network_error')::int, 0) > r.n
                         then jsonb_set(h.status_counts, '{network_error}', to_jsonb((h.status_counts ->> 'network_error')::int - r.n))
                         else h.status_counts - 'network_error' end
from refused_0025 as r
where h.listing_id = r.listing_id and h.bucket = r.bucket and h.errors >= r.n;
update probes set outcome = 'blocked' where outcome = 'error' and error_kind = 'ssrf_blocked';
