import { decodePaymentResponseHeader } from "@x402/core/http";
import type { ReportedOutcome } from "@x402-lookout/contracts/outcomes/typed-data";
import { judgePaidAnswer, sendOutcomeReport, signOutcomeReport, type OutcomeSigner } from "../outcome-report.js";

/** lookoutPolicy's opt-in reporting (decision 0052): after each paid call, the payer's word on what it got. */
export interface ReportOutcomesOptions {
  /** The paying wallet: only its own settlements are reported, signed by it. */
  signer: OutcomeSigner;
  /** Judge the answer yourself (default: 401/402/403 refused, other errors or an empty body undelivered, else delivered). */
  judge?: (status: number, body: string) => ReportedOutcome;
  /** Each report's fate, for the agent's logs; reporting never delays or fails the agent's own call. */
  onReport?: (report: { url: string; outcome: ReportedOutcome | null; status: number | null; error?: unknown }) => void;
}

/**
 * Watches answers through the policy's fetch: one that settled a payment of the signer's
 * (PAYMENT-RESPONSE) is judged from a copy of its body and reported in the background.
 */
export function outcomeReporter(baseUrl: string, opts: ReportOutcomesOptions) {
  return (request: Request, response: Response): void => {
    const header = response.headers.get("payment-response");
    if (!header || !request.headers.has("payment-signature")) return;
    const copy = response.clone();
    const url = request.url;
    let outcome: ReportedOutcome | null = null;
    void (async () => {
      const receipt = decodePaymentResponseHeader(header);
      if (!receipt.success || !receipt.transaction) return;
      if (receipt.payer && receipt.payer.toLowerCase() !== opts.signer.address.toLowerCase()) return;
      outcome = (opts.judge ?? judgePaidAnswer)(response.status, await copy.text());
      const body = await signOutcomeReport(opts.signer, { url, tx: receipt.transaction, outcome, detail: `HTTP ${response.status}` });
      const sent = await sendOutcomeReport(baseUrl, body);
      opts.onReport?.({ url, outcome, status: sent.status });
    })().catch((error: unknown) => opts.onReport?.({ url, outcome, status: null, error }));
  };
}
