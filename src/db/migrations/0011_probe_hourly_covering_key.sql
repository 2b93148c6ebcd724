-- Forensics reads a listing's 168 hourly rows of the last 7 days. The prober writes one row per
-- listing per hour, so those rows sit on 168 different heap pages (at 100,000 listings, a cold
-- call read about 170 pages, 10-20 ms). The primary key now carries the columns forensics reads,
-- so an index-only scan finds them on a few adjacent leaf pages (the maintenance vacuum keeps
-- the visibility map current). The key columns are unchanged: the rollup's
-- ON CONFLICT (listing_id, bucket) still infers it.
alter table probe_hourly drop constraint probe_hourly_pkey;
alter table probe_hourly add constraint probe_hourly_pkey primary key (listing_id, bucket)
  include (probes, healthy, latency_count, latency_sum_ms, status_counts);
