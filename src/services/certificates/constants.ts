// What a certificate asks of an endpoint is stated on the wire: packages/contracts/src/verified/limits.ts.
export { CERTIFICATE, CRITERION_IDS, type CriterionId } from "@x402-lookout/contracts/verified/limits";

/** The JWS signing algorithm and the JOSE curve of its keys. */
export const SIGNING = { alg: "EdDSA", crv: "Ed25519", typ: "JWT" } as const;

export type CertificateState = "verified" | "lapsed";
