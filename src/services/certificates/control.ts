import { getAddress, isAddressEqual, recoverMessageAddress, type Address, type Hex } from "viem";
import { certificateProofMessage } from "@x402-lookout/contracts/verified/proof";
import type { CertificateProof } from "../../db/schema.js";
import { ClaimRefused } from "../errors.js";
import { CERTIFICATE } from "./constants.js";
import type { ListingEvidence } from "./evidence.js";

/** An EIP-191 signature by the payTo over certificateProofMessage(...) of this request. */
export interface ControlProof {
  signature: string;
  issuedAt: string;
}

export interface ControlRequest {
  /** The url and name exactly as the request sent them: the proof's message binds these. */
  url: string;
  name?: string;
  /** The x402 payer; null when no x402 payment pays (a credit proves nothing about a payTo). */
  payer: string | null;
  proof?: ControlProof;
  issuer: string;
  now: Date;
}

export interface ProvenControl {
  payTo: Address;
  by: CertificateProof;
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const MAX_LISTED = 20;

/**
 * Decision 0019: a certificate speaks for the one payTo every covered listing is paid to, and
 * only a request that controls it gets one: paid from it (a), or signed by it (b). Throws
 * ClaimRefused naming why not; the route then answers 422 and the gate settles nothing.
 */
export async function proveControl(listings: readonly ListingEvidence[], pattern: string, req: ControlRequest): Promise<ProvenControl> {
  const subject = { url: pattern, name: req.name ?? null };
  const missing = listings.filter((l) => l.payTo === null);
  if (missing.length > 0) {
    throw new ClaimRefused(
      "payto_missing",
      `${missing.length} covered listing(s) have no payTo in the catalog, so control of their payments cannot be proven; nothing was charged`,
      {
        ...subject,
        payer: req.payer,
        listings_without_pay_to: missing.slice(0, MAX_LISTED).map((l) => ({ url: l.url, method: l.method })),
      },
    );
  }
  const payTos = [...new Map(listings.map((l) => [l.payTo!.toLowerCase(), l.payTo!])).values()];
  if (payTos.length > 1) {
    throw new ClaimRefused(
      "payto_ambiguous",
      `the covered listings are paid to ${payTos.length} different payTo addresses and a certificate speaks for one: certify each provider's endpoints with a narrower pattern; nothing was charged`,
      { ...subject, pay_to: payTos.slice(0, MAX_LISTED), payer: req.payer },
    );
  }
  const raw = payTos[0]!;
  if (!EVM_ADDRESS.test(raw)) {
    throw new ClaimRefused("payto_unsupported", `the payTo ${raw} is not an EVM address: control can be proven only for an EVM payTo; nothing was charged`, {
      ...subject,
      pay_to: [raw],
      payer: req.payer,
    });
  }
  const payTo = getAddress(raw);
  const details = { ...subject, pay_to: [payTo], payer: req.payer };
  if (req.payer !== null && EVM_ADDRESS.test(req.payer) && isAddressEqual(req.payer as Address, payTo)) return { payTo, by: "payment" };
  if (!req.proof) {
    throw new ClaimRefused(
      "payto_not_proven",
      `the payment came from ${req.payer ?? "no x402 payer"}, not from the payTo ${payTo} of the covered listings, and the request carries no proof: pay from the payTo, or add a proof signed by it (docs/certificates.md); nothing was charged`,
      details,
    );
  }
  await checkProof(req, req.proof, payTo, details);
  return { payTo, by: "signature" };
}

async function checkProof(req: ControlRequest, proof: ControlProof, payTo: Address, details: Record<string, unknown>): Promise<void> {
  const message = certificateProofMessage({ issuer: req.issuer, url: req.url, name: req.name, issuedAt: proof.issuedAt });
  const ageMs = req.now.getTime() - Date.parse(proof.issuedAt);
  const stale = !(ageMs <= CERTIFICATE.proofMaxAgeMs) ? "older than 10 minutes" : ageMs < -CERTIFICATE.proofMaxSkewMs ? "in the future" : null;
  if (stale) {
    throw new ClaimRefused("proof_stale", `proof.issuedAt ${proof.issuedAt} is ${stale}: sign a fresh proof (it holds 10 minutes); nothing was charged`, {
      ...details,
      issued_at: proof.issuedAt,
      checked_at: req.now.toISOString(),
    });
  }
  const signer = await recoverMessageAddress({ message, signature: proof.signature as Hex }).catch(() => null);
  if (signer === null || !isAddressEqual(signer, payTo)) {
    throw new ClaimRefused(
      "proof_invalid",
      `proof.signature is not the payTo's signature of this request's proof_message (another key signed it, or another message was signed): sign proof_message exactly with the payTo's key; nothing was charged`,
      { ...details, proof_signer: signer, proof_message: message },
    );
  }
}
