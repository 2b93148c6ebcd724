import type { ColumnType, Generated, GeneratedAlways } from "kysely";

/**
 * The typed schema: one interface per table of src/db/migrations, column for column.
 * Runtime types are the same on PGlite and PostgreSQL (src/db/type-parsers.ts).
 */

// ---- column kinds -------------------------------------------------------------------------

/** timestamptz: read as Date, written as Date or ISO-8601 text. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** timestamptz with a database default (now()). */
export type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** numeric: read as an exact decimal string (money is never a float). */
export type Numeric = ColumnType<string, string | number, string | number>;
export type NullableNumeric = ColumnType<string | null, string | number | null | undefined, string | number | null>;

/** date: 'YYYY-MM-DD' text both ways (a JS Date would shift with the session time zone). */
export type DateOnly = ColumnType<string, string, string>;

/** text[] with a '{}' default. */
export type TextArray = ColumnType<string[], string[] | undefined, string[]>;

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/**
 * A jsonb column that holds an object. Write an object or JSON text, never a bare array:
 * node-postgres sends JS arrays as PostgreSQL array literals, which jsonb rejects.
 */
export type JsonColumn<T extends object = JsonObject> = ColumnType<T, T | object | string, T | object | string>;
/** A jsonb object column with a '{}' default. */
export type DefaultJsonColumn<T extends object = JsonObject> = ColumnType<T, T | object | string | undefined, T | object | string>;

// ---- runner --------------------------------------------------------------------------------

export interface SchemaMigrationsTable {
  /** '0001' */
  version: string;
  /** '0001_init' */
  name: string;
  /** sha256 of the file, hex */
  checksum: string;
  applied_at: DefaultTimestamp;
}

// ---- catalog -------------------------------------------------------------------------------

export type PollStatus = "ok" | "partial" | "error";

/** Where a source's listings come from: a Bazaar-schema discovery API, or an origin's own manifest. */
export type CatalogSourceKind = "bazaar" | "manifest";

export interface CatalogSourcesTable {
  /** Stable identity: the normalised URL unless configured otherwise (the demo's is 'demo'); `url` when not given. */
  id: ColumnType<string, string | undefined, string>;
  /** The address polled now; it may change under the same id. */
  url: string;
  kind: Generated<CatalogSourceKind>;
  created_at: DefaultTimestamp;
  last_poll_started_at: NullableTimestamp;
  last_poll_finished_at: NullableTimestamp;
  last_success_at: NullableTimestamp;
  last_status: PollStatus | null;
  last_error: string | null;
  consecutive_failures: Generated<number>;
  next_poll_at: DefaultTimestamp;
  etag: string | null;
  last_modified: string | null;
  lease_owner: string | null;
  lease_until: NullableTimestamp;
}

export interface CatalogPollsTable {
  id: Generated<number>;
  /** The source polled; `source_url` when not given. */
  source_id: ColumnType<string, string | undefined, string>;
  source_url: string;
  started_at: Timestamp;
  finished_at: NullableTimestamp;
  complete: Generated<boolean>;
  items_seen: Generated<number>;
  items_valid: Generated<number>;
  items_malformed: Generated<number>;
  listings_added: Generated<number>;
  listings_removed: Generated<number>;
  error: string | null;
}

/** Which sources list a listing and what each says (migration 0021). */
export interface ListingSourcesTable {
  listing_id: number;
  source_id: string;
  method: string;
  price_atomic: NullableNumeric;
  price_usdc: NullableNumeric;
  currency: string | null;
  network: string | null;
  asset: string | null;
  pay_to: string | null;
  x402_version: number | null;
  l30d_calls: number | null;
  l30d_unique_payers: number | null;
  last_called_at: NullableTimestamp;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
  /** False once a complete poll of the source no longer lists it, or the source stopped counting. */
  listed: Generated<boolean>;
}

export interface ServicesTable {
  service_id: string;
  name: string;
  origin: string | null;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
  updated_at: DefaultTimestamp;
}

export interface ProvidersTable {
  provider_id: string;
  network: string;
  pay_to: string;
  name: string | null;
  first_seen_at: Timestamp;
  updated_at: DefaultTimestamp;
}

export interface ListingsTable {
  id: Generated<number>;
  url: string;
  url_normalized: string;
  /** Origin and path without query or trailing slash: what a request URL is matched by (migration 0024). */
  match_key: GeneratedAlways<string>;
  /** The address is a Bazaar route template ("/weather/:city"). */
  route_template: GeneratedAlways<boolean>;
  method: Generated<string>;
  service_id: string;
  provider_id: string | null;
  host: string;
  domain: string | null;
  category: string | null;
  tags: TextArray;
  description: string | null;
  price_usdc: NullableNumeric;
  price_atomic: NullableNumeric;
  currency: string | null;
  network: string | null;
  asset: string | null;
  pay_to: string | null;
  x402_version: number | null;
  resource_type: string | null;
  source_url: string;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
  is_active: Generated<boolean>;
  deactivated_at: NullableTimestamp;
  l30d_calls: number | null;
  l30d_unique_payers: number | null;
  last_called_at: NullableTimestamp;
  raw: DefaultJsonColumn;
  next_probe_at: DefaultTimestamp;
  lease_owner: string | null;
  lease_until: NullableTimestamp;
  updated_at: DefaultTimestamp;
}

// ---- evidence ------------------------------------------------------------------------------

/**
 * healthy and error are the probes uptime judges; blocked (the SSRF guard refused the target, no
 * request sent), unchallenged (a paid listing answered 2xx without a challenge, decision 0037)
 * and needs_input (a 400 or 422 without a challenge, decision 0046) are counted apart from uptime.
 */
export type ProbeOutcome = "healthy" | "error" | "blocked" | "unchallenged" | "needs_input";

export interface ProbesTable {
  listing_id: number;
  probed_at: Timestamp;
  outcome: ProbeOutcome;
  status_code: number | null;
  error_kind: string | null;
  latency_ms: number | null;
  price_usdc: NullableNumeric;
  challenge_version: number | null;
  /** quote_terms.digest of the challenge entry read; null without one. */
  quote_digest: string | null;
  /** The request profile the probe wore (src/services/probes/profiles.ts). */
  profile: string | null;
  /** The prober's PROBE_VANTAGE (decision 0048); 'default' for a one-vantage deployment. */
  vantage: Generated<string>;
}

/** One challenge entry's full terms, stored once by digest (packages/contracts/src/quote.ts). */
export interface QuoteTermsTable {
  digest: string;
  x402_version: number;
  scheme: string;
  network: string;
  asset: string | null;
  pay_to: string | null;
  amount: Numeric;
  resource_url: string | null;
  max_timeout_seconds: number | null;
  first_seen_at: DefaultTimestamp;
  /** Why the entry's amount reads more than one way (MalformedReason); null when well-formed. */
  malformed: ColumnType<string | null, string | null | undefined, string | null>;
}

export type QuoteSource = "catalog" | "probe";

/** A listing's history of terms: one row per source, profile and distinct terms. */
export interface ListingQuotesTable {
  listing_id: number;
  source: QuoteSource;
  profile: string;
  /** The vantage that saw the terms (decision 0048). */
  vantage: Generated<string>;
  digest: string;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
  seen: Generated<number>;
}

/** A prober's vantage and its last cycle (decision 0048). */
export interface ProbeVantagesTable {
  name: string;
  last_cycle_at: Timestamp;
}

/** A request that another vantage probe a listing before a critical flag is published (decision 0048). */
export interface VantageConfirmationsTable {
  listing_id: number;
  requested_by: string;
  requested_at: Timestamp;
  lease_owner: string | null;
  lease_until: Timestamp | null;
  confirmed_by: string | null;
  confirmed_at: Timestamp | null;
}

/** HTTP status code (or 'network_error') -> count. */
export type StatusCounts = Record<string, number>;

export interface ProbeHourlyTable {
  listing_id: number;
  /** Start of the UTC hour. */
  bucket: Timestamp;
  probes: number;
  healthy: number;
  errors: number;
  latency_count: Generated<number>;
  latency_sum_ms: Generated<number>;
  latency_max_ms: number | null;
  /** Sparse [bin, count, ...]; src/services/evidence/latency-histogram.ts. */
  latency_hist: ColumnType<number[], number[] | undefined, number[]>;
  status_counts: DefaultJsonColumn<StatusCounts>;
  price_usdc_last: NullableNumeric;
  price_usdc_min: NullableNumeric;
  price_usdc_max: NullableNumeric;
}

export type EffectiveCountBasis = "sitemap_url_count" | "manifest_resource_count" | "canonical_homepage";

export interface HostChecksTable {
  host: string;
  wildcard_402_detected: Generated<boolean>;
  wildcard_402_checked_at: NullableTimestamp;
  spa_fallback_detected: Generated<boolean>;
  spa_fallback_checked_at: NullableTimestamp;
  effective_count: number | null;
  effective_count_basis: EffectiveCountBasis | null;
  sitemap_url_count: number | null;
  manifest_resource_count: number | null;
  evidence: DefaultJsonColumn;
  next_check_at: DefaultTimestamp;
  lease_owner: string | null;
  lease_until: NullableTimestamp;
  last_error: string | null;
  updated_at: DefaultTimestamp;
}

export interface SignalSnapshotsTable {
  listing_id: number;
  computed_at: Timestamp;
  warnings: TextArray;
  critical: Generated<boolean>;
  probes_30m: Generated<number>;
  healthy_30m: Generated<number>;
  errors_30m: Generated<number>;
  probes_1h: Generated<number>;
  healthy_1h: Generated<number>;
  probes_7d: Generated<number>;
  healthy_7d: Generated<number>;
  uptime_1h_pct: number | null;
  uptime_48h_pct: number | null;
  uptime_7d_pct: number | null;
  avg_latency_1h_ms: number | null;
  p50_latency_7d_ms: number | null;
  p90_latency_7d_ms: number | null;
  p99_latency_7d_ms: number | null;
  max_latency_7d_ms: number | null;
  last_probe_at: NullableTimestamp;
  /** The newest probe that reached the endpoint: never blocked (decision 0037). */
  last_outcome: Exclude<ProbeOutcome, "blocked"> | null;
  last_status_code: number | null;
  fail_streak: Generated<number>;
  /** Probes of the last hour a paid listing answered 2xx without a challenge (0025). */
  unchallenged_1h: Generated<number>;
  /** Probes of the last hour answered 400 or 422 without a challenge: the endpoint wants input (0027). */
  needs_input_1h: Generated<number>;
  /** The newest probe the SSRF guard refused (0025); readiness counts those newer than last_probe_at. */
  last_refused_at: NullableTimestamp;
  blacklist_reasons: TextArray;
  delist_reasons: TextArray;
  flagged_since: NullableTimestamp;
  risk_score: number | null;
  detail: DefaultJsonColumn;
  /** The offline guard's entry (0020): the preflight view and the terms; its number and when it last changed. */
  feed: ColumnType<JsonObject | null, object | string | null | undefined, object | string | null>;
  feed_seq: ColumnType<number | null, number | null | undefined, number | null>;
  feed_at: NullableTimestamp;
  /** The listing's paid delivery checks summed up (0029, decision 0051); null: never checked. */
  delivery: ColumnType<JsonObject | null, object | string | null | undefined, object | string | null>;
  /** The listing's settlements read from the chain (0030, decision 0052); null: not indexed. */
  settlements: ColumnType<JsonObject | null, object | string | null | undefined, object | string | null>;
}

/** A listing that left the catalog, numbered from verdict_seq (0020); kept for the deltas window. */
export interface VerdictRemovalsTable {
  seq: Generated<number>;
  listing_id: number;
  url: string;
  method: string;
  removed_at: Timestamp;
}

export interface FlagHistoryTable {
  listing_id: number;
  day: DateOnly;
  reasons: string[];
  recorded_at: DefaultTimestamp;
}

// ---- payments, credits, trial --------------------------------------------------------------

export type PaymentStatus = "claimed" | "settling" | "settled" | "failed" | "released";

export interface PaymentsTable {
  id: Generated<string>;
  authorization_key: string;
  request_id: string;
  route: string;
  network: string;
  scheme: Generated<string>;
  asset: string | null;
  pay_to: string | null;
  payer: string | null;
  amount_atomic: Numeric;
  tx_hash: string | null;
  status: PaymentStatus;
  error: string | null;
  authorizer: string | null;
  nonce: string | null;
  valid_before: NullableNumeric;
  identifier_hash: string | null;
  sealed_answer: string | null;
  created_at: DefaultTimestamp;
  settled_at: NullableTimestamp;
  updated_at: DefaultTimestamp;
}

export interface CreditsTable {
  id: Generated<string>;
  balance: number;
  initial_balance: number;
  paid_amount: Numeric;
  payer_address: string | null;
  payment_id: string | null;
  payment_tx: string | null;
  payment_network: string | null;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  last_used_at: NullableTimestamp;
}

/** host_net: a target host's calls from one client network (decision 0027). */
export type TrialScope = "ip" | "host" | "host_net";

export interface TrialCountersTable {
  day: DateOnly;
  scope: TrialScope;
  key: string;
  count: Generated<number>;
  /** Calls granted by the last statement that counted this row (see createTrialCounts). */
  granted: Generated<number>;
}

export interface TrialCacheTable {
  url_normalized: string;
  report: JsonColumn;
  /** The verdict the answer was made from; a call offering another one replaces the answer. */
  verdict: string | null;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
}

export interface LiveProbeCacheTable {
  url_normalized: string;
  result: JsonColumn;
  probed_at: Timestamp;
  expires_at: Timestamp;
}

export interface HostRateLimitsTable {
  host: string;
  window_start: Timestamp;
  count: Generated<number>;
}

// ---- watch ---------------------------------------------------------------------------------

export type SignalState = "fired" | "cleared";
/** A watched signal's state: fired, cleared, or unknown while the evidence cannot tell. */
export type WatchSignalState = SignalState | "unknown";
export type DeliveryStatus = "pending" | "delivered" | "failed" | "skipped_quota_exceeded";

export interface WatchesTable {
  id: Generated<string>;
  url: string;
  url_normalized: string;
  listing_id: number | null;
  webhook_url: string;
  /** Receiver host (lower case, no port): deliveries are limited per host across watches. */
  webhook_host: string;
  signals: string[];
  secret_hash: Buffer;
  /** The secret, sealed (or as-is without WATCH_SECRET_KEY); null on watches made before (decision 0025). */
  secret_sealed: Buffer | null;
  /** HKDF-derived key of watches made before decision 0025; null on newer ones. */
  signing_key: Buffer | null;
  alerts_remaining: Generated<number>;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  unsubscribed_at: NullableTimestamp;
  payment_tx: string | null;
  payer_address: string | null;
}

export interface WatchSignalStateTable {
  watch_id: string;
  signal: string;
  state: WatchSignalState;
  /** The last fired/cleared state (null until one was decided): alerts compare against it. */
  decided: SignalState | null;
  changed_at: Timestamp;
  evidence: DefaultJsonColumn;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  watch_id: string;
  signal: string;
  state: SignalState;
  payload: JsonColumn;
  status: ColumnType<DeliveryStatus, DeliveryStatus | undefined, DeliveryStatus>;
  attempts: Generated<number>;
  next_attempt_at: DefaultTimestamp;
  lease_owner: string | null;
  lease_until: NullableTimestamp;
  last_response_code: number | null;
  last_error: string | null;
  created_at: DefaultTimestamp;
  delivered_at: NullableTimestamp;
}

// ---- certificates, datasets, state -------------------------------------------------------

export type CertificateTier = "verified" | "not_verified";
/** How a certificate request proved control of the payTo: paid from it, or signed by it. */
export type CertificateProof = "payment" | "signature";

export interface SigningKeysTable {
  kid: string;
  alg: string;
  public_jwk: JsonColumn;
  private_jwk: JsonColumn;
  created_at: DefaultTimestamp;
  retired_at: NullableTimestamp;
}

export interface CertificatesTable {
  cert_id: string;
  url_pattern: string;
  name: string;
  listing_ids: ColumnType<number[], number[] | undefined, number[]>;
  tier: CertificateTier;
  verified: boolean;
  criteria: DefaultJsonColumn;
  jws: string | null;
  kid: string | null;
  issued_at: Timestamp;
  valid_until: Timestamp;
  payment_tx: string | null;
  payer_address: string | null;
  /** The payTo whose control the request proved (null: issued before proof was required, 0019). */
  pay_to: string | null;
  host: string | null;
  proven_by: CertificateProof | null;
}

export interface DatasetsTable {
  id: Generated<number>;
  period: string;
  period_start: Timestamp;
  period_end: Timestamp;
  built_at: Timestamp;
  files: DefaultJsonColumn<Record<string, JsonObject>>;
}

export type DeliveryOutcome = "delivered" | "invalid_output" | "undelivered" | "refused_after_payment" | "not_settled" | "skipped" | "interrupted";

/** One paid check of a listing by the canary role (0029, decision 0051). */
export interface DeliveryChecksTable {
  id: string;
  listing_id: number | null;
  url: string;
  method: string;
  host: string;
  state: "reserved" | "paying" | "done";
  outcome: DeliveryOutcome | null;
  reason: string | null;
  reserved_atomic: ColumnType<string, string | bigint | number | undefined, string | bigint | number>;
  spent_atomic: ColumnType<string, string | bigint | number | undefined, string | bigint | number>;
  network: string | null;
  asset: string | null;
  pay_to: string | null;
  payer: string | null;
  auth_nonce: string | null;
  valid_before: NullableTimestamp;
  tx: string | null;
  body_sha256: string | null;
  input_sha256: string | null;
  owner: string | null;
  started_at: Timestamp;
  finished_at: NullableTimestamp;
  evidence: DefaultJsonColumn;
}

type Atomic = ColumnType<string, string | bigint | number, string | bigint | number>;
/** int8 reads as a number here (src/db/type-parsers.ts): block numbers are far below 2^53. */
type BlockNumber = ColumnType<number, string | bigint | number, string | bigint | number>;

/** A payTo the indexer reads the chain for (0030, decision 0052). */
export interface ChainPayeesTable {
  network: string;
  pay_to: string;
  from_block: ColumnType<number | null, string | bigint | number | null | undefined, string | bigint | number | null>;
  synced_to: ColumnType<number | null, string | bigint | number | null | undefined, string | bigint | number | null>;
  added_at: Timestamp;
}

/** One EIP-3009 settlement to a known payTo, as the chain's logs show it (0030). */
export interface ChainSettlementsTable {
  network: string;
  tx_hash: string;
  log_index: number;
  block_number: BlockNumber;
  block_hash: string;
  settled_at: Timestamp;
  pay_to: string;
  payer: string;
  amount_atomic: Atomic;
  nonce: string;
  sender: string;
}

/** A payer's accepted report of a paid call's outcome (0030). */
export interface OutcomeReportsTable {
  id: string;
  listing_id: number | null;
  network: string;
  tx_hash: string;
  log_index: number;
  payer: string;
  outcome: "delivered" | "undelivered" | "invalid_output" | "refused_after_payment";
  detail: string;
  settled_at: Timestamp;
  amount_atomic: Atomic;
  signature: string;
  issued_at: Timestamp;
  accepted_at: Timestamp;
}

export interface AppStateTable {
  key: string;
  /** Any JSON value; written as JSON text (JSON.stringify) so scalars and arrays survive. */
  value: ColumnType<JsonValue, string, string>;
  updated_at: DefaultTimestamp;
}

export interface Database {
  schema_migrations: SchemaMigrationsTable;
  catalog_sources: CatalogSourcesTable;
  catalog_polls: CatalogPollsTable;
  listing_sources: ListingSourcesTable;
  services: ServicesTable;
  providers: ProvidersTable;
  listings: ListingsTable;
  probes: ProbesTable;
  quote_terms: QuoteTermsTable;
  listing_quotes: ListingQuotesTable;
  probe_vantages: ProbeVantagesTable;
  vantage_confirmations: VantageConfirmationsTable;
  probe_hourly: ProbeHourlyTable;
  host_checks: HostChecksTable;
  signal_snapshots: SignalSnapshotsTable;
  verdict_removals: VerdictRemovalsTable;
  flag_history: FlagHistoryTable;
  payments: PaymentsTable;
  credits: CreditsTable;
  trial_counters: TrialCountersTable;
  trial_cache: TrialCacheTable;
  live_probe_cache: LiveProbeCacheTable;
  host_rate_limits: HostRateLimitsTable;
  watches: WatchesTable;
  watch_signal_state: WatchSignalStateTable;
  webhook_deliveries: WebhookDeliveriesTable;
  signing_keys: SigningKeysTable;
  certificates: CertificatesTable;
  datasets: DatasetsTable;
  app_state: AppStateTable;
  delivery_checks: DeliveryChecksTable;
  chain_payees: ChainPayeesTable;
  chain_settlements: ChainSettlementsTable;
  outcome_reports: OutcomeReportsTable;
}
