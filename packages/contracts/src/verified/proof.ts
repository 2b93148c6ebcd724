/**
 * The message a payTo signs (EIP-191 personal_sign) to prove it asked for a certificate
 * (decision 0019). It binds everything the certificate will say on the payTo's behalf: the
 * issuer, the url and the name exactly as the request sends them, and when it was signed, so a
 * proof is good for that one request for a few minutes. Values are JSON-encoded, so no value
 * can pass for another line, and an omitted name reads `null`.
 *
 *   x402 Lookout certificate request
 *   issuer: "https://lookout.example"
 *   url: "https://weather.example/*"
 *   name: "Skycast Weather"
 *   issuedAt: "2026-11-20T12:00:00.000Z"
 */
export interface ProofMessageInput {
  /** The service's base address: the `iss` of its certificates (https://lookout.example). */
  issuer: string;
  url: string;
  name?: string | null;
  issuedAt: string;
}

export const PROOF_MESSAGE_TITLE = "x402 Lookout certificate request";

export function certificateProofMessage(input: ProofMessageInput): string {
  return [
    PROOF_MESSAGE_TITLE,
    `issuer: ${JSON.stringify(input.issuer)}`,
    `url: ${JSON.stringify(input.url)}`,
    `name: ${input.name == null ? "null" : JSON.stringify(input.name)}`,
    `issuedAt: ${JSON.stringify(input.issuedAt)}`,
  ].join("\n");
}
