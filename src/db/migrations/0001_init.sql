-- Catalog: the discovery sources we poll, each poll, and the listings they describe.
-- Sizing and index rationale: docs/storage.md.

create table catalog_sources (
  url                   text primary key,
  created_at            timestamptz not null default now(),
  last_poll_started_at  timestamptz,
  last_poll_finished_at timestamptz,
  last_success_at       timestamptz,
  last_status           text check (last_status in ('ok', 'partial', 'error')),
  last_error            text,
  consecutive_failures  integer not null default 0 check (consecutive_failures >= 0),
  -- Backoff lives here: a failing source is polled again at next_poll_at, not every cycle.
  next_poll_at          timestamptz not null default now(),
  etag                  text,
  last_modified         text,
  -- Lets several ingester processes share sources without polling one twice.
  lease_owner           text,
  lease_until           timestamptz
);

create table catalog_polls (
  id               bigserial primary key,
  source_url       text not null references catalog_sources (url) on delete cascade,
  started_at       timestamptz not null,
  finished_at      timestamptz,
  -- Only a complete poll may deactivate listings that it did not see.
  complete         boolean not null default false,
  items_seen       integer not null default 0 check (items_seen >= 0),
  items_valid      integer not null default 0 check (items_valid >= 0),
  items_malformed  integer not null default 0 check (items_malformed >= 0),
  listings_added   integer not null default 0 check (listings_added >= 0),
  listings_removed integer not null default 0 check (listings_removed >= 0),
  error            text
);
create index catalog_polls_started_at_idx on catalog_polls (started_at);
create index catalog_polls_source_started_at_idx on catalog_polls (source_url, started_at desc);

-- service_id is derived by the ingester from the service name, else from the origin.
create table services (
  service_id    text primary key,
  name          text not null,
  origin        text,
  first_seen_at timestamptz not null,
  last_seen_at  timestamptz not null,
  updated_at    timestamptz not null default now()
);
create index services_first_seen_at_idx on services (first_seen_at);

-- A provider is a billing namespace: one payTo address on one network. Addresses keep their
-- case because some networks' addresses are case-sensitive.
create table providers (
  provider_id   text primary key,
  network       text not null,
  pay_to        text not null,
  name          text,
  first_seen_at timestamptz not null,
  updated_at    timestamptz not null default now(),
  unique (network, pay_to)
);
create index providers_pay_to_idx on providers (pay_to);

create table listings (
  id                 bigserial primary key,
  url                text not null,
  url_normalized     text not null,
  method             text not null default 'POST' check (method <> '' and method = upper(method)),
  service_id         text not null references services (service_id),
  provider_id        text references providers (provider_id),
  host               text not null,
  domain             text,
  category           text,
  tags               text[] not null default '{}',
  description        text,
  price_usdc         numeric check (price_usdc >= 0),
  price_atomic       numeric check (price_atomic >= 0),
  currency           text,
  network            text,
  asset              text,
  pay_to             text,
  x402_version       smallint,
  resource_type      text,
  -- Not a foreign key: dropping a source must not take listing history with it.
  source_url         text not null,
  first_seen_at      timestamptz not null,
  last_seen_at       timestamptz not null,
  is_active          boolean not null default true,
  deactivated_at     timestamptz,
  -- Usage figures as the catalog reports them (null when the catalog has none).
  l30d_calls         bigint check (l30d_calls >= 0),
  l30d_unique_payers bigint check (l30d_unique_payers >= 0),
  last_called_at     timestamptz,
  raw                jsonb not null default '{}',
  -- Prober scheduling: claim due rows with FOR NO KEY UPDATE SKIP LOCKED, set next_probe_at
  -- and the lease in the same statement.
  next_probe_at      timestamptz not null default now(),
  lease_owner        text,
  lease_until        timestamptz,
  updated_at         timestamptz not null default now(),
  unique (url_normalized, method),
  check (is_active = (deactivated_at is null))
) with (fillfactor = 90); -- room for HOT updates of last_seen_at and leases

create index listings_due_idx on listings (next_probe_at) where is_active;
create index listings_first_seen_at_idx on listings (first_seen_at);
create index listings_deactivated_at_idx on listings (deactivated_at) where deactivated_at is not null;
create index listings_service_id_idx on listings (service_id);
create index listings_provider_id_idx on listings (provider_id);
create index listings_domain_idx on listings (domain) where is_active;
create index listings_category_idx on listings (category) where is_active;
create index listings_host_idx on listings (host);
create index listings_source_url_active_idx on listings (source_url) where is_active;
