import { BLACKLIST_REASONS } from "@x402-lookout/contracts/codes";
import type { DatasetRow } from "./rows.js";

export interface Column {
  name: string;
  type: "string" | "integer" | "number" | "boolean" | "date-time" | "string list";
  description: string;
  value(row: DatasetRow): string | number | boolean | string[] | null;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const round1 = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);

/** The dataset's columns, in order; README.md documents exactly these. */
export const COLUMNS: readonly Column[] = [
  { name: "url", type: "string", description: "the listed endpoint URL", value: (r) => r.url },
  { name: "method", type: "string", description: "HTTP method of the listing", value: (r) => r.method },
  { name: "service", type: "string", description: "service name (the listing's serviceName, else its origin)", value: (r) => r.service },
  { name: "service_id", type: "string", description: "stable slug of the service", value: (r) => r.service_id },
  {
    name: "provider",
    type: "string",
    description: "billing namespace (payTo), named by its most common service; empty when unknown",
    value: (r) => r.provider,
  },
  { name: "domain", type: "string", description: "registrable domain of the host", value: (r) => r.domain },
  { name: "category", type: "string", description: "category from the listing's tags, on a fixed vocabulary", value: (r) => r.category },
  {
    name: "price_usdc",
    type: "string",
    description: "current price in USDC (decimal): the last observed challenge, else the catalog's",
    value: (r) => r.price_usdc,
  },
  { name: "currency", type: "string", description: "currency of the price", value: (r) => r.currency },
  { name: "network", type: "string", description: "CAIP-2 payment network of the listing", value: (r) => r.network },
  { name: "first_seen_at", type: "date-time", description: "when the listing was first seen in a catalog", value: (r) => iso(r.first_seen_at) },
  {
    name: "probes_7d",
    type: "integer",
    description: "probes in the last 7 days that judged the endpoint (healthy or error; decision 0037)",
    value: (r) => r.probes_7d ?? 0,
  },
  {
    name: "healthy_7d",
    type: "integer",
    description: "healthy probes (a parseable x402 challenge, or a 2xx of a listing without a listed price) in the last 7 days",
    value: (r) => r.healthy_7d ?? 0,
  },
  {
    name: "uptime_7d_pct",
    type: "number",
    description: "healthy_7d / probes_7d x 100, one decimal; empty without probes",
    value: (r) => round1(r.uptime_7d_pct),
  },
  {
    name: "uptime_48h_pct",
    type: "number",
    description: "uptime over the last 48 hours, one decimal; empty without probes",
    value: (r) => round1(r.uptime_48h_pct),
  },
  { name: "p50_latency_7d_ms", type: "integer", description: "median time to response headers over 7 days, ms", value: (r) => r.p50_latency_7d_ms },
  { name: "p90_latency_7d_ms", type: "integer", description: "90th percentile latency over 7 days, ms", value: (r) => r.p90_latency_7d_ms },
  { name: "p99_latency_7d_ms", type: "integer", description: "99th percentile latency over 7 days, ms", value: (r) => r.p99_latency_7d_ms },
  { name: "max_latency_7d_ms", type: "integer", description: "largest latency over 7 days, ms", value: (r) => r.max_latency_7d_ms },
  { name: "last_probe_at", type: "date-time", description: "time of the latest probe", value: (r) => iso(r.last_probe_at) },
  {
    name: "last_outcome",
    type: "string",
    description:
      "healthy, error, unchallenged (a paid listing's 2xx without a challenge) or needs_input (a 400 or 422 without a challenge): the latest probe that reached the endpoint",
    value: (r) => r.last_outcome,
  },
  {
    name: "warnings",
    type: "string list",
    description: "warning codes in force, forensics codes included (/spec#warning-codes)",
    value: (r) => r.warnings ?? [],
  },
  { name: "blacklist_reasons", type: "string list", description: BLACKLIST_REASONS.join(", "), value: (r) => r.blacklist_reasons ?? [] },
  {
    name: "delist_reasons",
    type: "string list",
    description: "blacklist reasons, or ghost_listing (alive, listed 30+ days, no call in 30 days)",
    value: (r) => r.delist_reasons ?? [],
  },
  {
    name: "wildcard_402_detected",
    type: "boolean",
    description: "the host answers x402 challenges for random paths",
    value: (r) => r.wildcard_402_detected ?? false,
  },
  {
    name: "spa_fallback_detected",
    type: "boolean",
    description: "the host answers an HTML app shell for random paths",
    value: (r) => r.spa_fallback_detected ?? false,
  },
  { name: "evidence_at", type: "date-time", description: "when these aggregates were computed", value: (r) => iso(r.computed_at) },
];
