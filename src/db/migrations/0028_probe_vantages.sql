-- Probe vantages (decision 0048): each prober names the network place its probes leave from.
-- Every stored probe and quote span came from the one vantage there was: 'default'.
alter table probes add column vantage text not null default 'default';

-- A vantage's spans of a quote are its own, so quotes can be compared across vantages (cloaking).
alter table listing_quotes add column vantage text not null default 'default';
alter table listing_quotes drop constraint listing_quotes_pkey;
alter table listing_quotes add primary key (listing_id, source, profile, vantage, digest);

-- One row per vantage: when its prober last ran a cycle. Live: a cycle within VANTAGE_LIVE_MS.
create table probe_vantages (
  name text primary key,
  last_cycle_at timestamptz not null
);

-- A listing whose newest evidence (one vantage's) calls for another vantage's probe before a
-- critical flag is published. Another vantage's prober leases it, probes and marks it confirmed.
create table vantage_confirmations (
  listing_id bigint primary key references listings (id) on delete cascade,
  requested_by text not null,
  requested_at timestamptz not null,
  lease_owner text,
  lease_until timestamptz,
  confirmed_by text,
  confirmed_at timestamptz
);
create index vantage_confirmations_open_idx on vantage_confirmations (requested_at) where confirmed_at is null;
