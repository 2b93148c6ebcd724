import { sql, type Selectable } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, JsonValue } from "../../src/db/schema.js";
import { createTestDb, type TestDb } from "../helpers/db.js";

/**
 * schema.ts and the SQL must agree column for column. SHAPE below is checked twice: by the
 * compiler against the Database interface (kind and nullability are computed from the TS
 * types, so a wrong entry does not compile) and at run time against information_schema.
 */

type Kind<V> = V extends Date
  ? "timestamptz"
  : V extends Buffer
    ? "bytea"
    : V extends readonly unknown[]
      ? "array"
      : V extends boolean
        ? "boolean"
        : V extends number
          ? "number"
          : V extends string
            ? "string"
            : V extends object
              ? "json"
              : never;

type Describe<V> = [JsonValue] extends [V]
  ? "json not null" // a JSON value column: its null is JSON null, the SQL column is not null
  : `${Kind<NonNullable<V>>} ${null extends V ? "null" : "not null"}`;

type Shape<R> = { [C in keyof Selectable<R>]-?: Describe<Selectable<R>[C]> };

const SHAPE: { [T in keyof Database]: Shape<Database[T]> } = {
  app_state: {
    key: "string not null",
    value: "json not null",
    updated_at: "timestamptz not null",
  },
  catalog_polls: {
    id: "number not null",
    source_id: "string not null",
    source_url: "string not null",
    started_at: "timestamptz not null",
    finished_at: "timestamptz null",
    complete: "boolean not null",
    items_seen: "number not null",
    items_valid: "number not null",
    items_malformed: "number not null",
    listings_added: "number not null",
    listings_removed: "number not null",
    error: "string null",
  },
  catalog_sources: {
    id: "string not null",
    url: "string not null",
    kind: "string not null",
    created_at: "timestamptz not null",
    last_poll_started_at: "timestamptz null",
    last_poll_finished_at: "timestamptz null",
    last_success_at: "timestamptz null",
    last_status: "string null",
    last_error: "string null",
    consecutive_failures: "number not null",
    next_poll_at: "timestamptz not null",
    etag: "string null",
    last_modified: "string null",
    lease_owner: "string null",
    lease_until: "timestamptz null",
  },
  certificates: {
    cert_id: "string not null",
    url_pattern: "string not null",
    name: "string not null",
    listing_ids: "array not null",
    tier: "string not null",
    verified: "boolean not null",
    criteria: "json not null",
    jws: "string null",
    kid: "string null",
    issued_at: "timestamptz not null",
    valid_until: "timestamptz not null",
    payment_tx: "string null",
    payer_address: "string null",
    pay_to: "string null",
    host: "string null",
    proven_by: "string null",
  },
  credits: {
    id: "string not null",
    balance: "number not null",
    initial_balance: "number not null",
    paid_amount: "string not null",
    payer_address: "string null",
    payment_id: "string null",
    payment_tx: "string null",
    payment_network: "string null",
    created_at: "timestamptz not null",
    expires_at: "timestamptz not null",
    last_used_at: "timestamptz null",
  },
  datasets: {
    id: "number not null",
    period: "string not null",
    period_start: "timestamptz not null",
    period_end: "timestamptz not null",
    built_at: "timestamptz not null",
    files: "json not null",
  },
  flag_history: {
    listing_id: "number not null",
    day: "string not null",
    reasons: "array not null",
    recorded_at: "timestamptz not null",
  },
  host_checks: {
    host: "string not null",
    wildcard_402_detected: "boolean not null",
    wildcard_402_checked_at: "timestamptz null",
    spa_fallback_detected: "boolean not null",
    spa_fallback_checked_at: "timestamptz null",
    effective_count: "number null",
    effective_count_basis: "string null",
    sitemap_url_count: "number null",
    manifest_resource_count: "number null",
    evidence: "json not null",
    next_check_at: "timestamptz not null",
    lease_owner: "string null",
    lease_until: "timestamptz null",
    last_error: "string null",
    updated_at: "timestamptz not null",
  },
  host_rate_limits: {
    host: "string not null",
    window_start: "timestamptz not null",
    count: "number not null",
  },
  listings: {
    id: "number not null",
    url: "string not null",
    url_normalized: "string not null",
    match_key: "string not null",
    route_template: "boolean not null",
    method: "string not null",
    service_id: "string not null",
    provider_id: "string null",
    host: "string not null",
    domain: "string null",
    category: "string null",
    tags: "array not null",
    description: "string null",
    price_usdc: "string null",
    price_atomic: "string null",
    currency: "string null",
    network: "string null",
    asset: "string null",
    pay_to: "string null",
    x402_version: "number null",
    resource_type: "string null",
    source_url: "string not null",
    first_seen_at: "timestamptz not null",
    last_seen_at: "timestamptz not null",
    is_active: "boolean not null",
    deactivated_at: "timestamptz null",
    l30d_calls: "number null",
    l30d_unique_payers: "number null",
    last_called_at: "timestamptz null",
    raw: "json not null",
    next_probe_at: "timestamptz not null",
    lease_owner: "string null",
    lease_until: "timestamptz null",
    updated_at: "timestamptz not null",
  },
  live_probe_cache: {
    url_normalized: "string not null",
    result: "json not null",
    probed_at: "timestamptz not null",
    expires_at: "timestamptz not null",
  },
  payments: {
    id: "string not null",
    authorization_key: "string not null",
    request_id: "string not null",
    route: "string not null",
    network: "string not null",
    scheme: "string not null",
    asset: "string null",
    pay_to: "string null",
    payer: "string null",
    amount_atomic: "string not null",
    tx_hash: "string null",
    status: "string not null",
    error: "string null",
    created_at: "timestamptz not null",
    settled_at: "timestamptz null",
    updated_at: "timestamptz not null",
    authorizer: "string null",
    nonce: "string null",
    valid_before: "string null",
    identifier_hash: "string null",
    sealed_answer: "string null",
  },
  probe_hourly: {
    listing_id: "number not null",
    bucket: "timestamptz not null",
    probes: "number not null",
    healthy: "number not null",
    errors: "number not null",
    latency_count: "number not null",
    latency_sum_ms: "number not null",
    latency_max_ms: "number null",
    latency_hist: "array not null",
    status_counts: "json not null",
    price_usdc_last: "string null",
    price_usdc_min: "string null",
    price_usdc_max: "string null",
  },
  probes: {
    listing_id: "number not null",
    probed_at: "timestamptz not null",
    outcome: "string not null",
    status_code: "number null",
    error_kind: "string null",
    latency_ms: "number null",
    price_usdc: "string null",
    challenge_version: "number null",
    quote_digest: "string null",
    profile: "string null",
    vantage: "string not null",
  },
  probe_vantages: {
    name: "string not null",
    last_cycle_at: "timestamptz not null",
  },
  vantage_confirmations: {
    listing_id: "number not null",
    requested_by: "string not null",
    requested_at: "timestamptz not null",
    lease_owner: "string null",
    lease_until: "timestamptz null",
    confirmed_by: "string null",
    confirmed_at: "timestamptz null",
  },
  quote_terms: {
    digest: "string not null",
    x402_version: "number not null",
    scheme: "string not null",
    network: "string not null",
    asset: "string null",
    pay_to: "string null",
    amount: "string not null",
    resource_url: "string null",
    max_timeout_seconds: "number null",
    first_seen_at: "timestamptz not null",
    malformed: "string null",
  },
  listing_sources: {
    listing_id: "number not null",
    source_id: "string not null",
    method: "string not null",
    price_atomic: "string null",
    price_usdc: "string null",
    currency: "string null",
    network: "string null",
    asset: "string null",
    pay_to: "string null",
    x402_version: "number null",
    l30d_calls: "number null",
    l30d_unique_payers: "number null",
    last_called_at: "timestamptz null",
    first_seen_at: "timestamptz not null",
    last_seen_at: "timestamptz not null",
    listed: "boolean not null",
  },
  listing_quotes: {
    listing_id: "number not null",
    source: "string not null",
    profile: "string not null",
    vantage: "string not null",
    digest: "string not null",
    first_seen_at: "timestamptz not null",
    last_seen_at: "timestamptz not null",
    seen: "number not null",
  },
  providers: {
    provider_id: "string not null",
    network: "string not null",
    pay_to: "string not null",
    name: "string null",
    first_seen_at: "timestamptz not null",
    updated_at: "timestamptz not null",
  },
  schema_migrations: {
    version: "string not null",
    name: "string not null",
    checksum: "string not null",
    applied_at: "timestamptz not null",
  },
  services: {
    service_id: "string not null",
    name: "string not null",
    origin: "string null",
    first_seen_at: "timestamptz not null",
    last_seen_at: "timestamptz not null",
    updated_at: "timestamptz not null",
  },
  signal_snapshots: {
    listing_id: "number not null",
    computed_at: "timestamptz not null",
    warnings: "array not null",
    critical: "boolean not null",
    probes_30m: "number not null",
    healthy_30m: "number not null",
    errors_30m: "number not null",
    probes_1h: "number not null",
    healthy_1h: "number not null",
    probes_7d: "number not null",
    healthy_7d: "number not null",
    uptime_1h_pct: "number null",
    uptime_48h_pct: "number null",
    uptime_7d_pct: "number null",
    avg_latency_1h_ms: "number null",
    p50_latency_7d_ms: "number null",
    p90_latency_7d_ms: "number null",
    p99_latency_7d_ms: "number null",
    max_latency_7d_ms: "number null",
    last_probe_at: "timestamptz null",
    last_outcome: "string null",
    last_status_code: "number null",
    fail_streak: "number not null",
    unchallenged_1h: "number not null",
    needs_input_1h: "number not null",
    last_refused_at: "timestamptz null",
    blacklist_reasons: "array not null",
    delist_reasons: "array not null",
    flagged_since: "timestamptz null",
    risk_score: "number null",
    detail: "json not null",
    feed: "json null",
    feed_seq: "number null",
    feed_at: "timestamptz null",
  },
  verdict_removals: {
    seq: "number not null",
    listing_id: "number not null",
    url: "string not null",
    method: "string not null",
    removed_at: "timestamptz not null",
  },
  signing_keys: {
    kid: "string not null",
    alg: "string not null",
    public_jwk: "json not null",
    private_jwk: "json not null",
    created_at: "timestamptz not null",
    retired_at: "timestamptz null",
  },
  trial_cache: {
    url_normalized: "string not null",
    report: "json not null",
    verdict: "string null",
    created_at: "timestamptz not null",
    expires_at: "timestamptz not null",
  },
  trial_counters: {
    day: "string not null",
    scope: "string not null",
    key: "string not null",
    count: "number not null",
    granted: "number not null",
  },
  watch_signal_state: {
    watch_id: "string not null",
    signal: "string not null",
    state: "string not null",
    decided: "string null",
    changed_at: "timestamptz not null",
    evidence: "json not null",
  },
  watches: {
    id: "string not null",
    url: "string not null",
    url_normalized: "string not null",
    listing_id: "number null",
    webhook_url: "string not null",
    webhook_host: "string not null",
    signals: "array not null",
    secret_hash: "bytea not null",
    secret_sealed: "bytea null",
    signing_key: "bytea null",
    alerts_remaining: "number not null",
    created_at: "timestamptz not null",
    expires_at: "timestamptz not null",
    unsubscribed_at: "timestamptz null",
    payment_tx: "string null",
    payer_address: "string null",
  },
  webhook_deliveries: {
    id: "string not null",
    watch_id: "string not null",
    signal: "string not null",
    state: "string not null",
    payload: "json not null",
    status: "string not null",
    attempts: "number not null",
    next_attempt_at: "timestamptz not null",
    lease_owner: "string null",
    lease_until: "timestamptz null",
    last_response_code: "number null",
    last_error: "string null",
    created_at: "timestamptz not null",
    delivered_at: "timestamptz null",
  },
};

const KIND_OF_UDT: Record<string, string> = {
  timestamptz: "timestamptz",
  int2: "number",
  int4: "number",
  int8: "number",
  float8: "number",
  text: "string",
  uuid: "string",
  numeric: "string",
  date: "string",
  bool: "boolean",
  bytea: "bytea",
  jsonb: "json",
};

describe("schema.ts matches the migrations", () => {
  let h: TestDb;
  beforeAll(async () => {
    h = await createTestDb();
  });
  afterAll(async () => {
    await h.close();
  });

  it("has the same tables, columns, kinds and nullability", async () => {
    const { rows } = await sql<{ table_name: string; column_name: string; is_nullable: string; udt_name: string }>`
      select table_name, column_name, is_nullable, udt_name
      from information_schema.columns
      where table_schema = current_schema()
      order by table_name, ordinal_position`.execute(h.db);
    const actual: Record<string, Record<string, string>> = {};
    for (const c of rows) {
      const kind = c.udt_name.startsWith("_") ? "array" : (KIND_OF_UDT[c.udt_name] ?? `unmapped ${c.udt_name}`);
      (actual[c.table_name] ??= {})[c.column_name] = `${kind} ${c.is_nullable === "YES" ? "null" : "not null"}`;
    }
    expect(actual).toEqual(SHAPE);
  });
});
