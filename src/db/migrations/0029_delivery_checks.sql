-- Paid delivery checks (issue 38, decision 0051): the canary role pays a sample of listings from
-- its own wallet and judges what they deliver. One row per check: its reservation against the
-- daily budget, the payment and the answer, and the evidence kept for disputes (30 days).
create table delivery_checks (
  -- Public (GET /api/v1/delivery-checks/{id}) and unguessable: 'dc_' and 26 base32 characters.
  id text primary key,
  listing_id bigint references listings (id) on delete set null,
  url text not null,
  method text not null,
  host text not null,
  -- reserved: budget held, nothing signed yet; paying: a signed authorization may be out;
  -- done: outcome known (spent_atomic is what the chain took).
  state text not null check (state in ('reserved', 'paying', 'done')),
  -- interrupted (an addition): our side stopped after signing (a crash, a shutdown); the chain says what was spent, nothing is judged.
  outcome text check (outcome in ('delivered', 'invalid_output', 'undelivered', 'refused_after_payment', 'not_settled', 'skipped', 'interrupted')),
  -- Why the outcome, in a word or two: status_500, empty_body, placeholder, canned, timeout, schema, budget, ceiling, verdict, quote.
  reason text,
  -- What the budget holds for it until done (the checked amount), and what the chain shows was paid.
  reserved_atomic numeric(78, 0) not null default 0,
  spent_atomic numeric(78, 0) not null default 0,
  network text,
  asset text,
  pay_to text,
  payer text,
  -- The EIP-3009 authorization signed (its nonce and validBefore), so an interrupted check is resolved from the chain.
  auth_nonce text,
  valid_before timestamptz,
  tx text,
  -- sha-256 of the body delivered and of the input sent: canned answers repeat one body for different inputs.
  body_sha256 text,
  input_sha256 text,
  owner text,
  started_at timestamptz not null,
  finished_at timestamptz,
  evidence jsonb not null default '{}'::jsonb
);
create index delivery_checks_listing_idx on delivery_checks (listing_id, started_at desc);
create index delivery_checks_started_idx on delivery_checks (started_at);
create index delivery_checks_host_idx on delivery_checks (host, started_at desc);
create index delivery_checks_open_idx on delivery_checks (started_at) where state <> 'done';

-- The listing's delivery summary (the products' `delivery` object and the rule's input), written
-- with each check and refreshed as checks age out of 30 days; null: never checked.
alter table signal_snapshots add column delivery jsonb;
