import type { Metric } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productRoutes } from "../../src/http/routes/index.js";
import { body } from "../helpers/http.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import { creditPaidRoute, failingPaidRoute } from "../helpers/test-routes.js";

let svc: PaidService;
beforeAll(async () => {
  svc = await startPaidService({ routes: [...productRoutes, failingPaidRoute, creditPaidRoute] });
});
afterAll(() => svc?.close());

const json = { "content-type": "application/json" };

/** The sum of a series' values whose labels include `labels` (`sample` picks a histogram's _count or _sum). */
async function value(name: string, labels: Record<string, string> = {}, sample = name): Promise<number> {
  const metric = svc.ctx.metrics.getSingleMetric(name) as Metric | undefined;
  if (!metric) return 0;
  const { values } = await metric.get();
  return values
    .filter((v) => ((v as { metricName?: string }).metricName ?? name) === sample && Object.entries(labels).every(([k, x]) => v.labels[k] === x))
    .reduce((sum, v) => sum + v.value, 0);
}

describe("payment series", () => {
  it("counts a challenge, a verified and settled payment with its settle time, a bundle issued and a call spent from it", async () => {
    expect((await fetch(`${svc.url}/api/v1/credits`, { method: "POST", headers: json, body: "{}" })).status).toBe(402);
    expect(await value("lookout_payment_challenges_total", { route: "credits" })).toBe(1);

    const credit = await body(await svc.payingFetch(3)(`${svc.url}/api/v1/credits`, { method: "POST", headers: json, body: "{}" }));
    expect(credit.creditId).toBeTruthy();
    expect(await value("lookout_payment_challenges_total", { route: "credits" })).toBe(2); // the paying client's first ask
    expect(await value("lookout_payments_verified_total", { route: "credits" })).toBe(1);
    expect(await value("lookout_payments_settled_total", { route: "credits" })).toBe(1);
    expect(await value("lookout_credit_bundles_issued_total")).toBe(1);
    expect(await value("lookout_payment_settle_duration_seconds", { outcome: "settled" }, "lookout_payment_settle_duration_seconds_count")).toBe(1);
    expect(await value("lookout_payment_settle_duration_seconds", {}, "lookout_payment_settle_duration_seconds_sum")).toBeGreaterThan(0);

    const viaCredit = await fetch(`${svc.url}/api/v1/test-credit-paid`, { method: "POST", headers: { ...json, "x-credit-id": credit.creditId }, body: "{}" });
    expect(viaCredit.status).toBe(200);
    const refunded = await fetch(`${svc.url}/api/v1/test-credit-paid`, {
      method: "POST",
      headers: { ...json, "x-credit-id": credit.creditId },
      body: '{"fail":true}',
    });
    expect(refunded.status).toBe(503);
    expect(await value("lookout_credit_calls_spent_total", { route: "test-credit-paid" })).toBe(1);
  });

  it("counts failed payments by stage and reason: refused locally, and an answer that failed (nothing settled)", async () => {
    const forged = await fetch(`${svc.url}/api/v1/credits`, { method: "POST", headers: { ...json, "payment-signature": "bm90IGpzb24=" }, body: "{}" });
    expect(forged.status).toBe(402);
    expect(await value("lookout_payments_failed_total", { stage: "check", reason: "invalid_payment" })).toBe(1);

    const res = await svc.payingFetch(4)(`${svc.url}/api/v1/test-failing`, { method: "POST", headers: json, body: "{}" });
    expect(res.status).toBe(503);
    expect(await value("lookout_payments_failed_total", { stage: "answer" })).toBe(1);
    expect(await value("lookout_payments_settled_total", { route: "test-failing" })).toBe(0);
  });

  it("shows every series on /metrics", async () => {
    const text = await (await fetch(`${svc.url}/metrics`)).text();
    for (const name of [
      "lookout_payment_challenges_total",
      "lookout_payments_failed_total",
      "lookout_credit_calls_spent_total",
      "lookout_quota_refusals_total",
    ])
      expect(text).toContain(`# TYPE ${name}`);
  });
});
