import { decodePaymentResponseHeader } from "@x402/core/http";
import type { ReportedOutcome } from "@x402-lookout/contracts/outcomes/typed-data";
import { judgePaidAnswer, sendOutcomeReport, signOutcomeReport, type OutcomeSigner } from "../outcome-report.js";

/** lookoutPolicy's opt-in reporting (decision 0052): after each paid call, the payer's word on what it got. */
export interface ReportOutcomesOptions {
  /** The paying wallet: only its own settlements are reported, signed by it. */
  signer: OutcomeSigner;
  /**
   * Judge the answer yourself, from its status and the first `JUDGED_BODY_BYTES` of its body
   * (default: 401/402/403 refused, other errors or an empty body undelivered, else delivered).
   */
  judge?: (status: number, body: string) => ReportedOutcome;
  /** Each report's fate, for the agent's logs; reporting never delays or fails the agent's own call. */
  onReport?: (report: { url: string; outcome: ReportedOutcome | null; status: number | null; error?: unknown }) => void;
  /** The transport reports are sent with (default the global fetch). */
  fetch?: typeof fetch;
  /** How long a report not yet matched to its settlement is retried (default OUTCOME_RETRY: about 2 minutes). */
  retry?: { attempts?: number; waitMs?: number; maxWaitMs?: number };
}

/** The judge reads at most this much of a paid answer's body (a copy; the agent's own is untouched). */
export const JUDGED_BODY_BYTES = 1 << 20;

/** The settlement receipt a paid answer carries: v2's PAYMENT-RESPONSE, v1's X-PAYMENT-RESPONSE. */
export function settlementOf(request: Request, response: Response): { transaction: string; payer?: string } | null {
  const paid = request.headers.has("payment-signature") || request.headers.has("x-payment");
  const header = response.headers.get("payment-response") ?? response.headers.get("x-payment-response");
  if (!paid || !header) return null;
  const receipt = decodePaymentResponseHeader(header);
  return receipt.success && receipt.transaction ? { transaction: receipt.transaction, payer: receipt.payer } : null;
}

/**
 * Watches answers through the policy's fetch: one that settled a payment of the signer's is judged
 * from a copy of its body and reported in the background (the 402 before it carries no receipt).
 */
export function outcomeReporter(baseUrl: string, opts: ReportOutcomesOptions) {
  return (request: Request, response: Response): void => {
    const url = request.url;
    let outcome: ReportedOutcome | null = null;
    let found: ReturnType<typeof settlementOf>;
    try {
      found = settlementOf(request, response);
    } catch (error) {
      return opts.onReport?.({ url, outcome, status: null, error });
    }
    const receipt = found;
    // Another wallet's settlement (a receipt naming another payer) is not the signer's to report.
    if (!receipt || (receipt.payer && receipt.payer.toLowerCase() !== opts.signer.address.toLowerCase())) return;
    // Cloned before the agent reads its own body; only the copy is read here.
    const copy = response.clone();
    void (async () => {
      outcome = (opts.judge ?? judgePaidAnswer)(response.status, await headOf(copy, JUDGED_BODY_BYTES));
      const body = await signOutcomeReport(opts.signer, { url, tx: receipt.transaction, outcome, detail: `HTTP ${response.status}` });
      const sent = await sendOutcomeReport(baseUrl, body, { ...opts.retry, fetch: opts.fetch });
      opts.onReport?.({ url, outcome, status: sent.status });
    })().catch((error: unknown) => opts.onReport?.({ url, outcome, status: null, error }));
  };
}

/** The first `limit` bytes of a body as text; the rest is left unread (a stream may never end). */
async function headOf(response: Response, limit: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  // Not awaited: a cancelled branch of a tee settles only once the agent's branch is done too.
  reader.cancel().catch(() => undefined);
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all.subarray(0, limit));
}
