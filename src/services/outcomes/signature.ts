import { recoverTypedDataAddress, type Hex } from "viem";
import { OUTCOME_REPORT_DOMAIN, OUTCOME_REPORT_TYPES, outcomeReportMessage, type ReportedOutcome } from "@x402-lookout/contracts/outcomes/typed-data";

export interface SignedReport {
  url: string;
  tx?: string | undefined;
  nonce?: string | undefined;
  outcome: ReportedOutcome;
  detail?: string | undefined;
  payer: string;
  issued_at: number;
  signature: string;
}

/**
 * Whether the report's EIP-712 signature recovers to its payer (an externally owned wallet: the
 * kind that signs EIP-3009 authorizations). Any malformed signature is simply not the payer's.
 */
export async function signedByPayer(r: SignedReport): Promise<boolean> {
  try {
    const signer = await recoverTypedDataAddress({
      domain: OUTCOME_REPORT_DOMAIN,
      types: OUTCOME_REPORT_TYPES,
      primaryType: "OutcomeReport",
      message: outcomeReportMessage(r),
      signature: r.signature as Hex,
    });
    return signer.toLowerCase() === r.payer.toLowerCase();
  } catch {
    return false;
  }
}
