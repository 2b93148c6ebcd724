-- Many sources, one catalog (issue 27). A catalog source has a stable id (its normalised URL
-- unless configured otherwise; the demo's is 'demo' whatever its ports), so a source whose URL
-- moves stays one source. listing_sources records, per listing, which sources list it and what
-- each says; a listing leaves the active catalog when no source that still counts lists it
-- (docs/catalog.md, "Retirement").
alter table catalog_polls drop constraint catalog_polls_source_url_fkey;
alter table catalog_sources drop constraint catalog_sources_pkey;
alter table catalog_sources
  add column id text,
  add column kind text not null default 'bazaar' check (kind in ('bazaar', 'manifest'));
update catalog_sources set id = url;
alter table catalog_sources alter column id set not null, add primary key (id);

-- source_url keeps the address polled; source_id names the source.
alter table catalog_polls add column source_id text;
update catalog_polls set source_id = source_url;
alter table catalog_polls
  alter column source_id set not null,
  add foreign key (source_id) references catalog_sources (id) on delete cascade;
create index catalog_polls_source_id_started_at_idx on catalog_polls (source_id, started_at desc);

-- A row written with only its address (older writers, fixtures) is its own id.
create function catalog_source_id_default() returns trigger language plpgsql as $$
begin
  if tg_table_name = 'catalog_sources' then
    new.id := coalesce(new.id, new.url);
  else
    new.source_id := coalesce(new.source_id, new.source_url);
  end if;
  return new;
end $$;
create trigger catalog_sources_id_default before insert on catalog_sources
  for each row execute function catalog_source_id_default();
create trigger catalog_polls_source_id_default before insert on catalog_polls
  for each row execute function catalog_source_id_default();

create table listing_sources (
  listing_id         bigint not null references listings (id) on delete cascade,
  source_id          text not null references catalog_sources (id) on delete cascade,
  method             text not null,
  price_atomic       numeric check (price_atomic >= 0),
  price_usdc         numeric check (price_usdc >= 0),
  currency           text,
  network            text,
  asset              text,
  pay_to             text,
  x402_version       smallint,
  l30d_calls         bigint check (l30d_calls >= 0),
  l30d_unique_payers bigint check (l30d_unique_payers >= 0),
  last_called_at     timestamptz,
  first_seen_at      timestamptz not null,
  last_seen_at       timestamptz not null,
  -- False once a complete poll of the source no longer lists the listing.
  listed             boolean not null default true,
  primary key (listing_id, source_id)
);
create index listing_sources_source_idx on listing_sources (source_id, last_seen_at);

-- Today's listings, each listed by the source that last saw it.
insert into listing_sources (listing_id, source_id, method, price_atomic, price_usdc, currency, network, asset, pay_to,
  x402_version, l30d_calls, l30d_unique_payers, last_called_at, first_seen_at, last_seen_at, listed)
select l.id, s.id, l.method, l.price_atomic, l.price_usdc, l.currency, l.network, l.asset, l.pay_to, l.x402_version,
  l.l30d_calls, l.l30d_unique_payers, l.last_called_at, l.first_seen_at, l.last_seen_at, l.is_active
from listings as l join catalog_sources as s on s.url = l.source_url;
