-- Issue 27 item 2.
-- Alerts are signed with the subscription secret itself (spec 6, decision 0025): the secret is kept
-- recoverable (sealed with AES-256-GCM under WATCH_SECRET_KEY, or as-is without one). Watches made
-- before keep their HKDF-derived signing_key, which is what their receivers were given; new ones
-- have none.
alter table watches add column secret_sealed bytea;
alter table watches alter column signing_key drop not null;

-- Deliveries are limited per receiver host across all watches (docs/webhooks.md): the host of
-- webhook_url, lower case, without port.
alter table watches add column webhook_host text;
update watches set webhook_host = lower(substring(webhook_url from '^[A-Za-z][A-Za-z0-9+.-]*://(\[[^]]*\]|[^/?#:]*)'));
alter table watches alter column webhook_host set not null;

-- A target host's trial calls are also counted per client network (decision 0027).
alter table trial_counters drop constraint if exists trial_counters_scope_check;
alter table trial_counters add constraint trial_counters_scope_check check (scope in ('ip', 'host', 'host_net'));
