-- Payments, prepaid credits, the free trial's counters and caches, and the live-probe guard
-- for URLs that are not in the catalog.

-- One row per paid request that reached verification. Amounts are atomic units (10^-6 USDC).
create table payments (
  id                uuid primary key default gen_random_uuid(),
  -- One key per signed authorization (network:payer:nonce for EIP-3009): claimed before the
  -- handler runs, so one signature pays for one answer however many requests carry it.
  authorization_key text not null unique,
  request_id        text not null,
  route             text not null,
  network           text not null,
  scheme            text not null default 'exact',
  asset             text,
  pay_to            text,
  payer             text,
  amount_atomic     numeric not null check (amount_atomic >= 0),
  -- Unique: a transaction pays for one request only (replays are refused here as a last line).
  tx_hash           text unique,
  -- verified: signature checked, handler running; settlement_skipped: the handler answered
  -- >= 400 (e.g. 503), so nothing was settled.
  status            text not null check (status in ('verified', 'settled', 'settle_failed', 'settlement_skipped', 'verify_failed')),
  error             text,
  created_at        timestamptz not null default now(),
  settled_at        timestamptz,
  updated_at        timestamptz not null default now()
);
create index payments_created_at_idx on payments (created_at);
create index payments_payer_idx on payments (payer) where payer is not null;
create index payments_request_id_idx on payments (request_id);

-- The id is the bearer token; it is never listed anywhere.
create table credits (
  id              uuid primary key default gen_random_uuid(),
  balance         integer not null check (balance >= 0),
  initial_balance integer not null check (initial_balance > 0),
  paid_amount     numeric not null check (paid_amount >= 0),
  payer_address   text,
  -- Unique: one payment mints one bundle (a repeat answers 409 with the existing credit).
  payment_id      uuid unique references payments (id),
  payment_tx      text unique,
  payment_network text,
  created_at      timestamptz not null default now(),
  expires_at      timestamptz not null,
  last_used_at    timestamptz,
  check (balance <= initial_balance)
);
create index credits_expires_at_idx on credits (expires_at);

-- Free-trial quotas per UTC day: 10 per client IP, 50 per target host.
create table trial_counters (
  day   date not null,
  scope text not null check (scope in ('ip', 'host')),
  key   text not null,
  count integer not null default 0 check (count >= 0),
  primary key (day, scope, key)
);

-- Trial answers are cached 300 s per URL, across API processes.
create table trial_cache (
  url_normalized text primary key,
  report         jsonb not null,
  created_at     timestamptz not null default now(),
  expires_at     timestamptz not null
);
create index trial_cache_expires_at_idx on trial_cache (expires_at);

-- Live probes of unknown URLs, cached 5 minutes per URL.
create table live_probe_cache (
  url_normalized text primary key,
  result         jsonb not null,
  probed_at      timestamptz not null,
  expires_at     timestamptz not null
);
create index live_probe_cache_expires_at_idx on live_probe_cache (expires_at);

-- Fixed-window counters that keep live probes of one target host rate limited.
create table host_rate_limits (
  host         text not null,
  window_start timestamptz not null,
  count        integer not null default 0 check (count >= 0),
  primary key (host, window_start)
);
create index host_rate_limits_window_start_idx on host_rate_limits (window_start);
