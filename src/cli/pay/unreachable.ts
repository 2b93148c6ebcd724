/** Network error codes, in the words a person trying the service reads them. */
const CAUSES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  ECONNRESET: "connection reset",
  ETIMEDOUT: "connection timed out",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  CERT_HAS_EXPIRED: "its TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed",
};

function codeOf(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined, i = 0; e && i < 5; i++) {
    if (typeof e.code === "string") return e.code;
    // Node's fetch wraps the socket error in `cause`; a dual-stack connect gathers them in `errors`.
    const inner = e.cause ?? (Array.isArray(e.errors) ? e.errors[0] : undefined);
    e = inner as typeof e;
  }
  return undefined;
}

/**
 * "fetch failed" names no cause: this says which address could not be reached and why, and for
 * a refused local address, the likely fix. Undefined for an error that is not about the network
 * (a payment the client refused to sign, say): that one's own message is clear.
 */
export function unreachableMessage(base: string, err: unknown): string | undefined {
  const code = codeOf(err);
  if (!code && (err as Error)?.message !== "fetch failed") return undefined;
  const cause = code ? (CAUSES[code] ?? code) : "the connection failed";
  const local = /^https?:\/\/(localhost|127\.|\[::1\])/.test(base);
  const hint = code === "ECONNREFUSED" && local ? " — is npm start running?" : "";
  return `cannot reach ${base}: ${cause}${hint}`;
}
