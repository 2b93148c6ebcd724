/**
 * The EIP-712 message a payer signs to report what a paid call delivered (decision 0052). Plain
 * data, so any EIP-712 signer (viem, ethers, a hardware wallet) signs it without this package's code.
 */
export const OUTCOMES = ["delivered", "undelivered", "invalid_output", "refused_after_payment"] as const;
export type ReportedOutcome = (typeof OUTCOMES)[number];

/** No chain id: the report names its settlement, and the settlement its network. */
export const OUTCOME_REPORT_DOMAIN = { name: "x402 Lookout outcome report", version: "1" } as const;

export const OUTCOME_REPORT_TYPES = {
  OutcomeReport: [
    { name: "url", type: "string" },
    { name: "transaction", type: "bytes32" },
    { name: "nonce", type: "bytes32" },
    { name: "outcome", type: "string" },
    { name: "detail", type: "string" },
    { name: "issuedAt", type: "uint256" },
  ],
} as const;

/** The zero word: the report names its settlement by the other of transaction and nonce. */
export const ZERO_WORD = `0x${"0".repeat(64)}` as const;

/** What the payer signs, from a report's body fields (tx or nonce absent: the zero word). */
export function outcomeReportMessage(r: {
  url: string;
  tx?: string | null;
  nonce?: string | null;
  outcome: ReportedOutcome;
  detail?: string | null;
  issued_at: number;
}) {
  return {
    url: r.url,
    transaction: (r.tx ?? ZERO_WORD) as `0x${string}`,
    nonce: (r.nonce ?? ZERO_WORD) as `0x${string}`,
    outcome: r.outcome,
    detail: r.detail ?? "",
    issuedAt: BigInt(r.issued_at),
  };
}
