-- A cached trial answer holds only while the verdict behind it does (issue 23): the verdict it
-- was made from (ok, action, warnings) is kept beside it, and a fresh offer with another verdict
-- replaces it at once instead of waiting out the 300 s.
alter table trial_cache add column verdict text;
