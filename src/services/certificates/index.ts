export { CERTIFICATE, CRITERION_IDS, SIGNING, type CertificateState, type CriterionId } from "./constants.js";
export { evaluateCriteria, type CriterionReport, type FailingListing, type Observed } from "./criteria.js";
export { issueCertificate, type IssuedCertificate, type IssueInput, type IssueResult } from "./issue.js";
export { certificateBadgePath, certificateLinks, certificatePagePath, JWKS_PATH } from "./links.js";
export { viewCertificate, type CertificateView } from "./live-state.js";
export { parseScope, type Scope } from "./scope.js";
export { activeSigningKey, publicJwks } from "./signing-keys.js";
