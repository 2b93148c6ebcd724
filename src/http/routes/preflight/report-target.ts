import type { BatchItemInput } from "@x402-lookout/contracts/preflight/request";
import { readPaymentRequired } from "@x402-lookout/contracts/quote";
import type { Services } from "../../../services/index.js";

type ReportTarget = Exclude<Parameters<Services["reports"]["preflight"]>[0], string>;

/**
 * A validated request element as the reports service takes it: the method upper-cased, the
 * paymentRequired read (the body schema already refused one that cannot be read).
 */
export function reportTarget(input: BatchItemInput): ReportTarget {
  if (typeof input === "string") return { url: input };
  const paymentRequired = input.paymentRequired === undefined ? undefined : (readPaymentRequired(input.paymentRequired) ?? undefined);
  return { url: input.url, ...(input.method ? { method: input.method.toUpperCase() } : {}), ...(paymentRequired ? { paymentRequired } : {}) };
}
