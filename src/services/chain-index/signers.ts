/**
 * A facilitator's signer addresses for `network` from its /supported answer: keys are a CAIP-2
 * network or a family pattern (`eip155:*`). Lower-case, deduplicated.
 */
export function signersFor(signers: Readonly<Record<string, readonly string[]>> | undefined, network: string): string[] {
  const family = `${network.split(":")[0]}:*`;
  const out = Object.entries(signers ?? {})
    .filter(([key]) => key === network || key === family)
    .flatMap(([, addresses]) => addresses.map((a) => a.toLowerCase()));
  return [...new Set(out)];
}
