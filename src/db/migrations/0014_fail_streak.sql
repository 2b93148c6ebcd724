-- dead is "N consecutive failed probes, none healthy since" (decision 0014), so the snapshot
-- keeps the length of the listing's current run of failed probes (0 when the latest was healthy).
alter table signal_snapshots add column fail_streak smallint not null default 0;
