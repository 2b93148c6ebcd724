import type { Kysely } from "kysely";
import { atomicToUsdc } from "@x402-lookout/contracts/usdc";
import { NO_DELIVERY, type Delivery, type DeliveryOutcomeCode, type ForensicsDelivery } from "@x402-lookout/contracts/preflight/delivery";
import type { Database } from "../../db/schema.js";
import { deliveryOf } from "../delivery/summary.js";

/** Where a check's signed evidence is served (GET /api/v1/delivery-checks/{id}). */
export const deliveryCheckUrl = (base: string, id: string) => `${base}/api/v1/delivery-checks/${id}`;

/** The `delivery` object of a report: the listing's stored summary, nulls when never checked or uncatalogued (decision 0051). */
export function deliveryView(row: { delivery?: unknown } | null, base: string): Delivery {
  const d = row ? deliveryOf(row) : null;
  if (!d || d.outcome === null || d.outcome === "skipped" || d.outcome === "interrupted") return { ...NO_DELIVERY };
  return {
    checked_at: d.checked_at,
    outcome: d.outcome,
    paid_usdc: d.paid_usdc,
    tx: d.tx,
    checks_30d: d.checks_30d,
    delivered_30d: d.delivered_30d,
    last_delivered_at: d.last_delivered_at,
    evidence_url: d.check_id ? deliveryCheckUrl(base, d.check_id) : null,
  };
}

/** Forensics adds the last ten checks that said something about the endpoint, newest first. */
export async function forensicsDelivery(db: Kysely<Database>, row: { id: number; delivery?: unknown } | null, base: string): Promise<ForensicsDelivery> {
  const summary = deliveryView(row, base);
  if (!row || summary.checked_at === null) return { ...summary, recent: [] };
  const checks = await db
    .selectFrom("delivery_checks")
    .select(["id", "started_at", "outcome", "reason", "spent_atomic", "tx"])
    .where("listing_id", "=", row.id)
    .where("state", "=", "done")
    .where("outcome", "not in", ["skipped", "interrupted"])
    .orderBy("started_at", "desc")
    .limit(10)
    .execute();
  const recent = checks.map((c) => ({
    id: c.id,
    checked_at: c.started_at.toISOString(),
    outcome: c.outcome as DeliveryOutcomeCode,
    reason: c.reason,
    paid_usdc: atomicToUsdc(c.spent_atomic),
    tx: c.tx,
    evidence_url: deliveryCheckUrl(base, c.id),
  }));
  return { ...summary, recent };
}
