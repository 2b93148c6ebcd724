export { createVerdictSigningService, type VerdictSigningDeps, type VerdictSigningService } from "./service.js";
export { createJwsSigner, createVerdictSigner, KEY_REFRESH_MS, type JwsSigner, type VerdictSigner } from "./signer.js";
export { verdictClaims, type SignedFields } from "./claims.js";
