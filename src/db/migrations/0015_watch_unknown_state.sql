-- A watched signal may be `unknown` (too little evidence to say fired or cleared), and alerts
-- follow the last decided state: `decided` is the last fired/cleared state, kept while the
-- signal reads unknown, so an unknown spell between two equal states raises nothing.
alter table watch_signal_state drop constraint watch_signal_state_state_check;
alter table watch_signal_state add constraint watch_signal_state_state_check check (state in ('fired', 'cleared', 'unknown'));
alter table watch_signal_state add column decided text check (decided in ('fired', 'cleared'));
update watch_signal_state set decided = state;
