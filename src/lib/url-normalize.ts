/**
 * One spelling per endpoint, so catalog listings, probes and customer queries meet: lower-case
 * scheme and host, no default port, no fragment, no userinfo, "/" for an empty path, query
 * parameters kept in their order (servers may treat order as meaningful).
 */
export function normalizeUrl(input: string): string {
  const u = new URL(input);
  u.hash = "";
  u.username = "";
  u.password = "";
  // URL already lower-cases the scheme and host and drops default ports.
  if (u.pathname === "") u.pathname = "/";
  return u.toString();
}

/** The URL normalised, or undefined when it is not an absolute http(s) URL. */
export function tryNormalizeHttpUrl(input: string): string | undefined {
  if (!URL.canParse(input)) return undefined;
  const u = new URL(input);
  if (u.protocol !== "http:" && u.protocol !== "https:") return undefined;
  return normalizeUrl(input);
}

/** host:port as the per-host politeness and host checks key it. */
export const hostKey = (url: string): string => new URL(url).host;
