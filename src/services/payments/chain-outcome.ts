/**
 * What the token says about one EIP-3009 authorization. `used` names the transaction that
 * moved the money; `canceled` means the payer burned the nonce with cancelAuthorization (the
 * token's authorizationState is true then too, but nothing was paid); `unknown` means the state
 * is used but the chain's logs within reach do not say how.
 */
export type AuthorizationOutcome = { state: "unused" } | { state: "used"; transaction: string } | { state: "canceled" } | { state: "unknown" };

/** The chain as the payment ledger's reconciler reads it. */
export interface ChainReader {
  authorizationOutcome(asset: string, authorizer: string, nonce: string): Promise<AuthorizationOutcome>;
}
