import type { QuoteChallenge } from "@x402-lookout/contracts/quote";
import { checkQuote } from "../quotes/check.js";
import type { Subject } from "./preflight-report.js";

/** What a report is asked about: a URL, and optionally the method and the 402 the agent holds. */
export interface ReportTarget {
  url: string;
  method?: string;
  paymentRequired?: QuoteChallenge;
}

export const targetOf = (t: string | ReportTarget): ReportTarget => (typeof t === "string" ? { url: t } : t);

/**
 * The subject bound to the agent's quote: the quote's terms against the listing's and the
 * observed ones, their codes added to the stored verdict's (which every product reads).
 */
export async function withQuote(s: Subject, target: ReportTarget): Promise<Subject> {
  const method = target.method?.toUpperCase() ?? s.method;
  if (!target.paymentRequired) return { ...s, method };
  const listed = s.input.known ? s.input.listedQuote : null;
  const quote = await checkQuote(target.paymentRequired, listed, s.input.observedQuote);
  const fired = [...s.fired, ...quote.warnings.filter((w) => !s.fired.includes(w))];
  return { ...s, method, quote, fired };
}
