-- Payment states of docs/payments.md: claimed (the handler may be running), settling (the
-- answer is ready and settlement was asked for), settled, failed (the facilitator refused; the
-- authorization may pay again) and released (nothing was asked of the chain, or the chain says
-- the authorization is unused). The reconciler resolves claimed and settling rows from the chain.
alter table payments drop constraint payments_status_check;
update payments set status = case status
  when 'verified' then 'claimed'
  when 'settle_failed' then 'failed'
  when 'verify_failed' then 'failed'
  when 'settlement_skipped' then 'released'
  else status end;
alter table payments add constraint payments_status_check
  check (status in ('claimed', 'settling', 'settled', 'failed', 'released'));

-- What the reconciler asks the token: authorizationState(authorizer, nonce), and until when the
-- authorization could still land (validBefore, seconds since the epoch).
alter table payments add column authorizer text;
alter table payments add column nonce text;
alter table payments add column valid_before numeric;

-- The x402 payment-identifier extension: a client-chosen id that never goes on chain. Only its
-- SHA-256 is kept; the answer a retry may collect is sealed with a key derived from the id
-- itself, so the database alone can neither replay it nor read a bearer secret inside it.
alter table payments add column identifier_hash text;
alter table payments add column sealed_answer text;
create unique index payments_identifier_hash_idx on payments (identifier_hash) where identifier_hash is not null;

create index payments_unfinished_idx on payments (updated_at) where status in ('claimed', 'settling');
