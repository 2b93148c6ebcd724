-- Quote history (issue 24, decision 0020). Every challenge the prober reads keeps its full terms:
-- the terms once, by their digest (the same sha256 a signed verdict binds, src/contracts/quote.ts),
-- and each probe names them with the request profile it wore. listing_quotes is the listing's
-- history of terms per source (the catalog's listing, the prober's challenges) and profile: one
-- row per distinct terms with the span it was seen in, so it outlives the raw probes.
create table quote_terms (
  digest text primary key,
  x402_version smallint not null,
  scheme text not null,
  network text not null,
  asset text,
  pay_to text,
  amount numeric not null,
  resource_url text,
  max_timeout_seconds integer,
  first_seen_at timestamptz not null default now()
);

alter table probes add column quote_digest text, add column profile text;

create table listing_quotes (
  listing_id bigint not null references listings (id) on delete cascade,
  source text not null check (source in ('catalog', 'probe')),
  profile text not null,
  digest text not null,
  first_seen_at timestamptz not null,
  last_seen_at timestamptz not null,
  seen integer not null default 1,
  primary key (listing_id, source, profile, digest)
);
create index listing_quotes_last_seen on listing_quotes (last_seen_at);
create index listing_quotes_digest on listing_quotes (digest);
create index quote_terms_first_seen on quote_terms (first_seen_at);
