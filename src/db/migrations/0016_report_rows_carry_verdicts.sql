-- Every product reads the one stored verdict (issue 23): the report rows API processes cache now
-- carry the verdict's warnings and risk_score, so a change of either evicts the row. critical,
-- the reasons and flagged_since follow from the warnings or are read by no report.
create or replace function signal_snapshots_report_rows_changed() returns trigger language plpgsql as $$
declare
  ignored constant text[] := array['computed_at', 'critical', 'blacklist_reasons', 'delist_reasons', 'flagged_since'];
begin
  if tg_op = 'UPDATE' then
    perform notify_report_rows(array(
      select n.listing_id from new_rows n join old_rows o on o.listing_id = n.listing_id
      where (to_jsonb(n) - ignored) is distinct from (to_jsonb(o) - ignored)));
  elsif tg_op = 'INSERT' then
    perform notify_report_rows(array(select listing_id from new_rows));
  else
    perform notify_report_rows(array(select listing_id from old_rows));
  end if;
  return null;
end $$;
