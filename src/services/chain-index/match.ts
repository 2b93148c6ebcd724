import type { AuthorizationLog, TransferLog } from "./log-source.js";

export interface MatchedSettlement extends TransferLog {
  nonce: string;
}

/**
 * The transfers that settled an EIP-3009 authorization: each pairs with the payer's
 * AuthorizationUsed in the same transaction, the nearest before it (the token marks the nonce
 * used, then transfers), each authorization used once. Plain transfers are not x402 payments.
 */
export function matchSettlements(transfers: readonly TransferLog[], authorizations: readonly AuthorizationLog[]): MatchedSettlement[] {
  const byTx = new Map<string, AuthorizationLog[]>();
  for (const a of authorizations) byTx.set(a.txHash, [...(byTx.get(a.txHash) ?? []), a]);
  const used = new Set<AuthorizationLog>();
  const out: MatchedSettlement[] = [];
  for (const t of [...transfers].sort((a, b) => a.logIndex - b.logIndex)) {
    const candidates = (byTx.get(t.txHash) ?? []).filter((a) => a.authorizer === t.from && a.logIndex < t.logIndex && !used.has(a));
    const auth = candidates.sort((a, b) => b.logIndex - a.logIndex)[0];
    if (!auth) continue;
    used.add(auth);
    out.push({ ...t, nonce: auth.nonce });
  }
  return out;
}
