import { SsrfBlockedError } from "../../lib/ssrf-guard.js";

/** Why a request produced no HTTP response. */
export type NetworkErrorKind = "dns" | "refused" | "reset" | "timeout" | "tls" | "ssrf_blocked" | "protocol" | "other";

const DNS = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NODATA", "EAI_NONAME", "ENODATA", "ESERVFAIL"]);
const REFUSED = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "ENETDOWN", "EADDRNOTAVAIL"]);
const RESET = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]);
const TIMEOUT = new Set(["ETIMEDOUT", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);
const PROTOCOL = new Set(["UND_ERR_HEADERS_OVERFLOW", "HPE_HEADER_OVERFLOW", "UND_ERR_RES_CONTENT_LENGTH_MISMATCH"]);

const codesOf = (err: unknown): string[] => {
  const codes: string[] = [];
  let cur: unknown = err;
  // Undici wraps socket errors; the cause chain holds the system error code.
  for (let depth = 0; depth < 5 && cur && typeof cur === "object"; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
    cur = (cur as { cause?: unknown }).cause;
  }
  return codes;
};

const isTlsCode = (code: string): boolean =>
  code.startsWith("ERR_TLS_") ||
  code.startsWith("ERR_SSL_") ||
  code.startsWith("CERT_") ||
  code.includes("SELF_SIGNED") ||
  code === "UNABLE_TO_VERIFY_LEAF_SIGNATURE" ||
  code === "UNABLE_TO_GET_ISSUER_CERT_LOCALLY" ||
  code === "EPROTO";

/** Names why a request produced no HTTP response. `timedOut` is our own deadline firing. */
export function classifyNetworkError(err: unknown, timedOut: boolean): NetworkErrorKind {
  if (timedOut) return "timeout";
  let cur: unknown = err;
  for (let depth = 0; depth < 5 && cur && typeof cur === "object"; depth++) {
    if (cur instanceof SsrfBlockedError) return "ssrf_blocked";
    cur = (cur as { cause?: unknown }).cause;
  }
  const codes = codesOf(err);
  if (codes.some((c) => c === "ERR_SSRF_BLOCKED")) return "ssrf_blocked";
  if (codes.some((c) => DNS.has(c))) return "dns";
  if (codes.some((c) => TIMEOUT.has(c))) return "timeout";
  if (codes.some(isTlsCode)) return "tls";
  if (codes.some((c) => REFUSED.has(c))) return "refused";
  if (codes.some((c) => PROTOCOL.has(c) || c.startsWith("HPE_"))) return "protocol";
  if (codes.some((c) => RESET.has(c))) return "reset";
  return "other";
}
