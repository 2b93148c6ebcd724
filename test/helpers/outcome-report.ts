import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { OUTCOME_REPORT_DOMAIN, OUTCOME_REPORT_TYPES, outcomeReportMessage, type ReportedOutcome } from "@x402-lookout/contracts/outcomes/typed-data";

export interface ReportFields {
  url: string;
  tx?: string;
  nonce?: string;
  outcome: ReportedOutcome;
  detail?: string;
  issued_at: number;
}

/** A POST /api/v1/outcomes body signed by `key` with EIP-712; `payer` defaults to the signer's own address. */
export async function signedReport(key: Hex, fields: ReportFields, payer?: string) {
  const account = privateKeyToAccount(key);
  const signature = await account.signTypedData({
    domain: OUTCOME_REPORT_DOMAIN,
    types: OUTCOME_REPORT_TYPES,
    primaryType: "OutcomeReport",
    message: outcomeReportMessage(fields),
  });
  return { ...fields, payer: payer ?? account.address, signature };
}
