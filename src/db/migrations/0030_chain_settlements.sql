-- Chain truth (issue 39, decision 0052): the USDC settlements every known payTo received, read
-- from the chain's logs by the indexer role, and payers' signed reports of what they got.

-- One row per payTo the catalog names: how far the chain has been read for it. A new payTo starts
-- unread and is backfilled from its own start block; payTos at the same block are read together.
create table chain_payees (
  network text not null,
  pay_to text not null,
  -- The first block read for it (the backfill's start) and the last read to, at confirmation depth.
  from_block bigint,
  synced_to bigint,
  added_at timestamptz not null,
  primary key (network, pay_to)
);
create index chain_payees_synced_idx on chain_payees (network, synced_to);

-- An EIP-3009 settlement: a Transfer to a known payTo whose transaction used the payer's
-- authorization (AuthorizationUsed). Keyed by its log, so re-reading a range never counts twice.
create table chain_settlements (
  network text not null,
  tx_hash text not null,
  log_index integer not null,
  block_number bigint not null,
  block_hash text not null,
  settled_at timestamptz not null,
  pay_to text not null,
  payer text not null,
  amount_atomic numeric(78, 0) not null,
  nonce text not null,
  -- Who sent the transaction: a known facilitator's signer, or anyone else.
  sender text not null,
  primary key (network, tx_hash, log_index)
);
create index chain_settlements_pay_to_idx on chain_settlements (network, pay_to, settled_at desc);
create index chain_settlements_block_idx on chain_settlements (network, block_number);
create index chain_settlements_nonce_idx on chain_settlements (network, payer, nonce);

-- Payers' word, proven by their payment: one accepted report per settlement.
create table outcome_reports (
  id text primary key,
  listing_id bigint references listings (id) on delete cascade,
  network text not null,
  tx_hash text not null,
  log_index integer not null,
  payer text not null,
  outcome text not null check (outcome in ('delivered', 'undelivered', 'invalid_output', 'refused_after_payment')),
  detail text not null default '',
  settled_at timestamptz not null,
  amount_atomic numeric(78, 0) not null,
  signature text not null,
  issued_at timestamptz not null,
  accepted_at timestamptz not null,
  unique (network, tx_hash, log_index)
);
create index outcome_reports_listing_idx on outcome_reports (listing_id, accepted_at desc);

-- The listing's settlement evidence (decision 0052), refreshed by the indexer; null: not indexed.
alter table signal_snapshots add column settlements jsonb;
