-- Provider certificates and their signing keys, published datasets, and small singletons.

-- Ed25519 (or other JOSE) keys. Retired keys stay: their public half is published in the JWKS
-- until every certificate they signed has expired.
create table signing_keys (
  kid         text primary key,
  alg         text not null,
  public_jwk  jsonb not null,
  private_jwk jsonb not null,
  created_at  timestamptz not null default now(),
  retired_at  timestamptz
);
-- At most one active key per algorithm: rotation retires the old key and inserts the new one
-- in one transaction.
create unique index signing_keys_active_alg_idx on signing_keys (alg) where retired_at is null;

create table certificates (
  cert_id       text primary key,
  -- The URL or supported pattern the provider asked to certify, and the listings it covered.
  url_pattern   text not null,
  name          text not null,
  listing_ids   bigint[] not null default '{}',
  tier          text not null check (tier in ('verified', 'not_verified')),
  verified      boolean not null,
  criteria      jsonb not null default '{}',
  jws           text,
  kid           text references signing_keys (kid),
  issued_at     timestamptz not null,
  valid_until   timestamptz not null,
  payment_tx    text unique,
  payer_address text,
  check (verified = (tier = 'verified'))
);
create index certificates_url_pattern_idx on certificates (url_pattern, issued_at desc);
create index certificates_valid_until_idx on certificates (valid_until);

-- Weekly public dataset builds (CC-BY-4.0). files: name -> {path, bytes, sha256, rows, ...}.
create table datasets (
  id           bigserial primary key,
  period       text not null unique,
  period_start timestamptz not null,
  period_end   timestamptz not null,
  built_at     timestamptz not null,
  files        jsonb not null default '{}',
  check (period_end > period_start)
);
create index datasets_built_at_idx on datasets (built_at);

-- Small persisted singletons (e.g. devnet addresses, last rollup watermark).
create table app_state (
  key        text primary key,
  value      jsonb not null,
  updated_at timestamptz not null default now()
);
