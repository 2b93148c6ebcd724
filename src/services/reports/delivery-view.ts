import type { Kysely } from "kysely";
import { atomicToUsdc } from "@x402-lookout/contracts/usdc";
import { NO_DELIVERY, type Delivery, type DeliveryOutcomeCode, type ForensicsDelivery } from "@x402-lookout/contracts/preflight/delivery";
import type { Database } from "../../db/schema.js";
import { deliveryOf } from "../delivery/summary.js";

/** Where a check's signed evidence is served (GET /api/v1/delivery-checks/{id}). */
export const deliveryCheckUrl = (base: string, id: string) => `${base}/api/v1/delivery-checks/${id}`;

/**
 * The `delivery` object of a report: the listing's stored summary, its two sources apart (the
 * paid checker's checks, decision 0051; payers' reports, decision 0052); nulls and zeros when
 * neither said anything, or the URL is uncatalogued.
 */
export function deliveryView(row: { delivery?: unknown } | null, base: string): Delivery {
  const d = row ? deliveryOf(row) : null;
  const payers = {
    payer_reports_30d: d?.payers?.reports_30d ?? 0,
    payer_failures_30d: d?.payers?.failures_30d ?? 0,
    payers_failed_7d: d?.payers?.failed_payers_7d ?? 0,
  };
  if (!d || d.outcome === null || d.outcome === "skipped" || d.outcome === "interrupted") return { ...NO_DELIVERY, ...payers };
  return {
    checked_at: d.checked_at,
    outcome: d.outcome,
    paid_usdc: d.paid_usdc,
    tx: d.tx,
    checks_30d: d.checks_30d,
    delivered_30d: d.delivered_30d,
    last_delivered_at: d.last_delivered_at,
    evidence_url: d.check_id ? deliveryCheckUrl(base, d.check_id) : null,
    ...payers,
  };
}

/** Forensics adds the last ten checks that said something about the endpoint, and the last ten payer reports, newest first. */
export async function forensicsDelivery(db: Kysely<Database>, row: { id: number; delivery?: unknown } | null, base: string): Promise<ForensicsDelivery> {
  const summary = deliveryView(row, base);
  if (!row) return { ...summary, recent: [], reports: [] };
  const [recent, reports] = await Promise.all([
    summary.checked_at === null ? [] : recentChecks(db, row.id, base),
    summary.payer_reports_30d === 0 ? [] : recentReports(db, row.id),
  ]);
  return { ...summary, recent, reports };
}

async function recentChecks(db: Kysely<Database>, listingId: number, base: string) {
  const checks = await db
    .selectFrom("delivery_checks")
    .select(["id", "started_at", "outcome", "reason", "spent_atomic", "tx"])
    .where("listing_id", "=", listingId)
    .where("state", "=", "done")
    .where("outcome", "not in", ["skipped", "interrupted"])
    .orderBy("started_at", "desc")
    .limit(10)
    .execute();
  return checks.map((c) => ({
    id: c.id,
    checked_at: c.started_at.toISOString(),
    outcome: c.outcome as DeliveryOutcomeCode,
    reason: c.reason,
    paid_usdc: atomicToUsdc(c.spent_atomic),
    tx: c.tx,
    evidence_url: deliveryCheckUrl(base, c.id),
  }));
}

async function recentReports(db: Kysely<Database>, listingId: number) {
  const rows = await db
    .selectFrom("outcome_reports")
    .select(["id", "outcome", "payer", "tx_hash", "amount_atomic", "settled_at", "accepted_at", "detail"])
    .where("listing_id", "=", listingId)
    .orderBy("accepted_at", "desc")
    .limit(10)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    outcome: r.outcome,
    payer: r.payer,
    tx: r.tx_hash,
    amount_usdc: atomicToUsdc(r.amount_atomic),
    settled_at: r.settled_at.toISOString(),
    accepted_at: r.accepted_at.toISOString(),
    detail: r.detail,
  }));
}
