/**
 * What is wrong with a certificate's `url` as written, or undefined: one endpoint, or a pattern
 * (an origin, or an origin and path prefix, ending in *). No normalisation and no catalog access:
 * src/services/certificates/scope.ts reads the scope itself after this check passes.
 */
export function scopeProblem(input: string): string | undefined {
  const wildcard = input.endsWith("*");
  const body = wildcard ? input.slice(0, -1) : input;
  if (body.includes("*")) return "a pattern may only end in `*` (an origin, or an origin and path prefix, followed by *)";
  const u = httpUrl(body);
  if (!u) return "must be an absolute http or https URL, or such a URL followed by `*`";
  if (u.username || u.password) return "must not carry credentials";
  const bareOrigin = u.pathname === "/" && u.search === "" && !body.includes("#");
  if (!wildcard && !bareOrigin) return undefined;
  if (u.search !== "" || u.hash !== "" || body.includes("?") || body.includes("#")) return "a pattern must not have a query or fragment";
  return undefined;
}

function httpUrl(text: string): URL | undefined {
  if (!URL.canParse(text)) return undefined;
  const u = new URL(text);
  return u.protocol === "http:" || u.protocol === "https:" ? u : undefined;
}
