import { Counter, Histogram, type Registry } from "prom-client";

/** Each series once per registry: a second app or gate on one process's registry reuses it. */
function once<M>(registry: Registry, name: string, make: () => M): M {
  return (registry.getSingleMetric(name) as M | undefined) ?? make();
}

export interface HttpMetrics {
  requests: Counter<"route" | "method" | "status">;
  duration: Histogram<"route" | "method" | "status">;
  /** 429s of a used-up quota (the free trial's per-IP and per-host ones among them). */
  quotaRefusals: Counter<"route" | "scope">;
}

export function createHttpMetrics(registry: Registry): HttpMetrics {
  const registers = [registry];
  return {
    requests: once(
      registry,
      "lookout_http_requests_total",
      () =>
        new Counter({
          name: "lookout_http_requests_total",
          help: "HTTP requests by route, method and status",
          labelNames: ["route", "method", "status"],
          registers,
        }),
    ),
    duration: once(
      registry,
      "lookout_http_request_duration_seconds",
      () =>
        new Histogram({
          name: "lookout_http_request_duration_seconds",
          help: "HTTP request latency by route, method and status",
          labelNames: ["route", "method", "status"],
          buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
          registers,
        }),
    ),
    quotaRefusals: once(
      registry,
      "lookout_quota_refusals_total",
      () =>
        new Counter({
          name: "lookout_quota_refusals_total",
          help: "Requests refused because a quota is used up, by route and quota scope (the trial: route preflight-trial, scope ip or host)",
          labelNames: ["route", "scope"],
          registers,
        }),
    ),
  };
}

export interface PaymentMetrics {
  challenges: Counter<"route">;
  verified: Counter<"route">;
  settled: Counter<"route">;
  failed: Counter<"stage" | "reason">;
  settleSeconds: Histogram<"outcome">;
  creditBundlesIssued: Counter;
  creditCallsSpent: Counter<"route">;
}

/** The payment gate's series (docs/operations.md); the unfinished-payments gauge is read on scrape (state-gauges.ts). */
export function createPaymentMetrics(registry: Registry): PaymentMetrics {
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
    once(registry, name, () => new Counter<L>({ name, help, labelNames, registers }));
  return {
    challenges: counter("lookout_payment_challenges_total", "402 challenges sent, by route (first asks and refused payments alike)", ["route"]),
    verified: counter("lookout_payments_verified_total", "Payments the facilitator verified, by route", ["route"]),
    settled: counter("lookout_payments_settled_total", "Payments settled while the request waited, by route", ["route"]),
    failed: counter("lookout_payments_failed_total", "Payments that did not pay, by stage (check, verify, settle, answer) and reason", ["stage", "reason"]),
    settleSeconds: once(
      registry,
      "lookout_payment_settle_duration_seconds",
      () =>
        new Histogram({
          name: "lookout_payment_settle_duration_seconds",
          help: "Time the facilitator took to settle, by outcome (settled, pending, refused, unknown)",
          labelNames: ["outcome"],
          buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30],
          registers,
        }),
    ),
    creditBundlesIssued: counter("lookout_credit_bundles_issued_total", "Credit bundles bought (their payment settled)", []),
    creditCallsSpent: counter("lookout_credit_calls_spent_total", "Calls paid from a credit bundle and answered, by route", ["route"]),
  };
}

/** A reason fit for a label: a facilitator's free text cannot grow the series without bound. */
export const reasonLabel = (reason: string | undefined) =>
  (reason ?? "unknown")
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .slice(0, 48) || "unknown";
