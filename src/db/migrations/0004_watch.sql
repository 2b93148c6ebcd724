-- Watch subscriptions, the last known state of each watched signal, and the durable webhook
-- outbox the alerter drains.

create table watches (
  id               uuid primary key default gen_random_uuid(),
  url              text not null,
  url_normalized   text not null,
  -- Null while the URL is not (or no longer) a catalog listing.
  listing_id       bigint references listings (id) on delete set null,
  webhook_url      text not null,
  signals          text[] not null check (signals <> '{}'),
  -- Status and unsubscribe compare a hash, so the presented secret is checked in constant time
  -- without reading the key itself.
  secret_hash      bytea not null,
  -- Alerts are HMAC-SHA256 signed with the subscription secret (Standard Webhooks), so the
  -- signing key has to be kept.
  signing_key      bytea not null,
  alerts_remaining integer not null default 100 check (alerts_remaining >= 0),
  created_at       timestamptz not null default now(),
  expires_at       timestamptz not null,
  unsubscribed_at  timestamptz,
  -- Unique: one payment creates one subscription.
  payment_tx       text unique,
  payer_address    text
);
create index watches_active_listing_idx on watches (listing_id) where unsubscribed_at is null;
create index watches_active_url_idx on watches (url_normalized) where unsubscribed_at is null;
create index watches_expires_at_idx on watches (expires_at) where unsubscribed_at is null;

-- Alerts fire on a change of state, so the last state of every (watch, signal) is kept.
create table watch_signal_state (
  watch_id   uuid not null references watches (id) on delete cascade,
  signal     text not null,
  state      text not null check (state in ('fired', 'cleared')),
  changed_at timestamptz not null,
  evidence   jsonb not null default '{}',
  primary key (watch_id, signal)
);

-- The outbox. id is the Standard Webhooks webhook-id, stable across retries.
create table webhook_deliveries (
  id                 uuid primary key default gen_random_uuid(),
  watch_id           uuid not null references watches (id) on delete cascade,
  signal             text not null,
  state              text not null check (state in ('fired', 'cleared')),
  payload            jsonb not null,
  status             text not null default 'pending'
                     check (status in ('pending', 'delivered', 'failed', 'skipped_quota_exceeded')),
  attempts           integer not null default 0 check (attempts >= 0),
  next_attempt_at    timestamptz not null default now(),
  lease_owner        text,
  lease_until        timestamptz,
  last_response_code integer,
  last_error         text,
  created_at         timestamptz not null default now(),
  delivered_at       timestamptz
);
create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_watch_id_idx on webhook_deliveries (watch_id, created_at desc);
create index webhook_deliveries_created_at_idx on webhook_deliveries (created_at);
