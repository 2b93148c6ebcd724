-- Trial calls are counted for many requests at once (one statement per event-loop turn). The
-- statement raises each counter by the calls it grants, capped at the limit, and needs to know
-- how many that was: an UPDATE's RETURNING sees only the new count, but its SET sees the old
-- one, so the grant is written beside the count and returned.
alter table trial_counters add column granted integer not null default 0 check (granted >= 0);
