-- Alternatives (spec 4.6) match candidates by service, provider, domain, category, task class
-- (category or tag, case-insensitive) and similar price. The first four have indexes already;
-- these two keep the task-class and price branches index lookups instead of catalog scans.

create function lower_tags(tags text[]) returns text[]
language sql immutable strict parallel safe
as $$ select coalesce(array_agg(lower(t)), '{}') from unnest(tags) as t $$;

create index listings_lower_tags_idx on listings using gin (lower_tags(tags)) where is_active;
create index listings_price_usdc_idx on listings (price_usdc) where is_active;
