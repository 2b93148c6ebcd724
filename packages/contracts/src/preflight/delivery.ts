import { z } from "zod";
import { dateTime } from "../common.js";

/** Outcomes of a paid check that says something about the endpoint (decision 0051); skipped and interrupted ones are not shown. */
export const DELIVERY_OUTCOMES = ["delivered", "invalid_output", "undelivered", "refused_after_payment", "not_settled"] as const;
export type DeliveryOutcomeCode = (typeof DELIVERY_OUTCOMES)[number];

const paid = () =>
  z
    .string()
    .regex(/^\d+(\.\d{1,6})?$/)
    .nullable()
    .describe("USDC the check paid (0 when it did not settle); null when never checked");

/** The paid checker's word on an endpoint (issue 38): what its newest check got, and the last 30 days. */
export const DeliverySchema = z
  .object({
    checked_at: dateTime().nullable().describe("when the newest paid check ran; null when never checked"),
    outcome: z.enum(DELIVERY_OUTCOMES).nullable(),
    paid_usdc: paid(),
    tx: z.string().nullable().describe("the settlement transaction of the newest check"),
    checks_30d: z.number().int(),
    delivered_30d: z.number().int(),
    last_delivered_at: dateTime().nullable(),
    evidence_url: z.string().nullable().describe("the newest check's signed evidence document: GET /api/v1/delivery-checks/{id}"),
    payer_reports_30d: z.number().int().describe("payers' accepted outcome reports (POST /api/v1/outcomes), each proven by its settlement on chain"),
    payer_failures_30d: z.number().int().describe("reports among them of undelivered, invalid_output or refused_after_payment"),
    payers_failed_7d: z
      .number()
      .int()
      .describe(
        "distinct payers whose newest report within 7 days says undelivered or refused_after_payment: two or more, outnumbering those delivered, fire paid_no_delivery",
      ),
  })
  .describe(
    "two sources, named apart (docs/signals.md): the paid checker's checks (decision 0051; paid_no_delivery and invalid_output from the newest settled one) and payers' verified reports (decision 0052)",
  );

export const DeliveryCheckSummarySchema = z.object({
  id: z.string(),
  checked_at: dateTime(),
  outcome: z.enum(DELIVERY_OUTCOMES),
  reason: z.string().nullable().describe("why, in a word or two: status_500, empty_body, placeholder, canned, schema, timeout"),
  paid_usdc: paid(),
  tx: z.string().nullable(),
  evidence_url: z.string(),
});

export const PayerReportSchema = z.object({
  id: z.string(),
  outcome: z.enum(["delivered", "undelivered", "invalid_output", "refused_after_payment"]),
  payer: z.string(),
  tx: z.string(),
  amount_usdc: z.string(),
  settled_at: dateTime(),
  accepted_at: dateTime(),
  detail: z.string(),
});

export const ForensicsDeliverySchema = DeliverySchema.extend({
  recent: z.array(DeliveryCheckSummarySchema).max(10).describe("the last ten paid checks, newest first"),
  reports: z.array(PayerReportSchema).max(10).describe("the last ten accepted payer reports, newest first"),
});

export type Delivery = z.infer<typeof DeliverySchema>;
export type ForensicsDelivery = z.infer<typeof ForensicsDeliverySchema>;

/** What an endpoint never checked shows. */
export const NO_DELIVERY: Delivery = {
  checked_at: null,
  outcome: null,
  paid_usdc: null,
  tx: null,
  checks_30d: 0,
  delivered_30d: 0,
  last_delivered_at: null,
  evidence_url: null,
  payer_reports_30d: 0,
  payer_failures_30d: 0,
  payers_failed_7d: 0,
};
