import { OUTCOME_REPORT_DOMAIN, OUTCOME_REPORT_TYPES, outcomeReportMessage, type ReportedOutcome } from "@x402-lookout/contracts/outcomes/typed-data";
import type { ReportOutcomeInput } from "@x402-lookout/contracts/outcomes/report-outcome";

/** Any EIP-712 signer with its address: a viem account (privateKeyToAccount) is one. */
export interface OutcomeSigner {
  address: `0x${string}`;
  signTypedData(args: {
    domain: typeof OUTCOME_REPORT_DOMAIN;
    types: typeof OUTCOME_REPORT_TYPES;
    primaryType: "OutcomeReport";
    message: ReturnType<typeof outcomeReportMessage>;
  }): Promise<`0x${string}`>;
}

export interface OutcomeFields {
  url: string;
  /** The settlement's transaction (PAYMENT-RESPONSE's `transaction`), or its authorization nonce. */
  tx?: string;
  nonce?: string;
  outcome: ReportedOutcome;
  detail?: string;
  /** Unix seconds; default now. */
  issuedAt?: number;
}

/** The body of `reportOutcome()` (POST /api/v1/outcomes), signed by the wallet that paid (decision 0052). */
export async function signOutcomeReport(signer: OutcomeSigner, f: OutcomeFields): Promise<ReportOutcomeInput> {
  const fields = { url: f.url, tx: f.tx, nonce: f.nonce, outcome: f.outcome, detail: f.detail ?? "", issued_at: f.issuedAt ?? Math.floor(Date.now() / 1000) };
  const signature = await signer.signTypedData({
    domain: OUTCOME_REPORT_DOMAIN,
    types: OUTCOME_REPORT_TYPES,
    primaryType: "OutcomeReport",
    message: outcomeReportMessage(fields),
  });
  return { ...fields, tx: f.tx, nonce: f.nonce, payer: signer.address, signature };
}

/** What a paid call got, judged simply: a refusal after payment, an error or empty answer, or delivered. */
export function judgePaidAnswer(status: number, body: string): ReportedOutcome {
  if (status === 401 || status === 402 || status === 403) return "refused_after_payment";
  return status >= 200 && status < 300 && body.trim().length > 0 ? "delivered" : "undelivered";
}

/**
 * How long `sendOutcomeReport` keeps trying by default: 5, 10, 20, 30, 30 and 30 s apart, about 2
 * minutes, for an indexer 5 blocks and a 15-second tick behind the chain (the service's defaults),
 * in few attempts: each counts against the service's 30 reports a minute per client IP.
 */
export const OUTCOME_RETRY = { attempts: 7, waitMs: 5_000, maxWaitMs: 30_000 } as const;

/**
 * Sends a signed report, trying again while the service's chain index has not read the settlement
 * yet (422 not_paid: the indexer may lag a minute behind the chain) or the address is over its
 * limit (429): up to `attempts` times, waiting `waitMs` and then twice as long each time up to
 * `maxWaitMs` (a 429's Retry-After when longer). Any other answer is final. Returns the last
 * answer's status and body.
 */
export async function sendOutcomeReport(
  baseUrl: string,
  body: ReportOutcomeInput,
  opts: { attempts?: number; waitMs?: number; maxWaitMs?: number; fetch?: typeof fetch } = {},
) {
  const send = opts.fetch ?? globalThis.fetch;
  const { attempts = OUTCOME_RETRY.attempts, waitMs = OUTCOME_RETRY.waitMs, maxWaitMs = OUTCOME_RETRY.maxWaitMs } = opts;
  for (let attempt = 1; ; attempt++) {
    const res = await send(`${baseUrl}/api/v1/outcomes`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const answer = (await res.json().catch(() => ({}))) as { error?: string };
    const again = (res.status === 422 && answer.error === "not_paid") || res.status === 429;
    if (!again || attempt >= attempts) return { status: res.status, body: answer };
    const retryAfter = Number(res.headers.get("retry-after") ?? 0) * 1000;
    await new Promise((r) => setTimeout(r, Math.max(Math.min(waitMs * 2 ** (attempt - 1), maxWaitMs), retryAfter || 0)));
  }
}
