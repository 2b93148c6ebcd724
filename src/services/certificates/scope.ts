import { normalizeUrl } from "../../lib/url-normalize.js";

/**
 * What a certificate request names: one endpoint (every listed method of that URL), or a
 * pattern covering every active listing under an origin or an origin and path prefix.
 *   https://api.example.com/v1/forecast   endpoint
 *   https://api.example.com               origin (also written https://api.example.com/*)
 *   https://api.example.com/v1/*          prefix: every URL starting https://api.example.com/v1/
 */
export type Scope =
  | { kind: "endpoint"; pattern: string; host: string; url: string }
  | { kind: "origin" | "prefix"; pattern: string; host: string; prefix: string };

export type ScopeResult = { ok: true; scope: Scope } | { ok: false; message: string };

const fail = (message: string): ScopeResult => ({ ok: false, message });

function httpUrl(text: string): URL | undefined {
  if (!URL.canParse(text)) return undefined;
  const u = new URL(text);
  return u.protocol === "http:" || u.protocol === "https:" ? u : undefined;
}

export function parseScope(input: string): ScopeResult {
  const wildcard = input.endsWith("*");
  const body = wildcard ? input.slice(0, -1) : input;
  if (body.includes("*")) return fail("a pattern may only end in `*` (an origin, or an origin and path prefix, followed by *)");
  const u = httpUrl(body);
  if (!u) return fail("must be an absolute http or https URL, or such a URL followed by `*`");
  if (u.username || u.password) return fail("must not carry credentials");
  const bareOrigin = u.pathname === "/" && u.search === "" && !body.includes("#");
  if (!wildcard && !bareOrigin) {
    const url = normalizeUrl(body);
    return { ok: true, scope: { kind: "endpoint", pattern: url, host: u.host, url } };
  }
  if (u.search !== "" || u.hash !== "" || body.includes("?") || body.includes("#")) return fail("a pattern must not have a query or fragment");
  const prefix = normalizeUrl(body);
  const kind = new URL(prefix).pathname === "/" ? "origin" : "prefix";
  return { ok: true, scope: { kind, pattern: `${prefix}*`, host: u.host, prefix } };
}
