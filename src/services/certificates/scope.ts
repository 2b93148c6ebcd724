import { scopeProblem } from "@x402-lookout/contracts/verified/scope";
import { normalizeUrl } from "../../lib/url-normalize.js";

/**
 * What a certificate request names: one endpoint (every listed method of that URL), or a
 * pattern covering every active listing under an origin or an origin and path prefix.
 *   https://api.example.com/v1/forecast   endpoint
 *   https://api.example.com               origin (also written https://api.example.com/*)
 *   https://api.example.com/v1/*          prefix: every URL starting https://api.example.com/v1/
 */
export type Scope =
  { kind: "endpoint"; pattern: string; host: string; url: string } | { kind: "origin" | "prefix"; pattern: string; host: string; prefix: string };

export type ScopeResult = { ok: true; scope: Scope } | { ok: false; message: string };

const fail = (message: string): ScopeResult => ({ ok: false, message });

/** The scope a certificate request names; what is refused is the wire's own check (packages/contracts). */
export function parseScope(input: string): ScopeResult {
  const problem = scopeProblem(input);
  if (problem) return fail(problem);
  const wildcard = input.endsWith("*");
  const body = wildcard ? input.slice(0, -1) : input;
  const u = new URL(body);
  const bareOrigin = u.pathname === "/" && u.search === "" && !body.includes("#");
  if (!wildcard && !bareOrigin) {
    const url = normalizeUrl(body);
    return { ok: true, scope: { kind: "endpoint", pattern: url, host: u.host, url } };
  }
  const prefix = normalizeUrl(body);
  const kind = new URL(prefix).pathname === "/" ? "origin" : "prefix";
  return { ok: true, scope: { kind, pattern: `${prefix}*`, host: u.host, prefix } };
}
