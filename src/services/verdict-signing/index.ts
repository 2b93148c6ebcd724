export { createVerdictSigner, KEY_REFRESH_MS, type VerdictSigner } from "./signer.js";
export { verdictClaims, type SignedFields } from "./claims.js";
