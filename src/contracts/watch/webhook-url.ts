import { isIpLiteral, isLoopbackAddress, isPublicAddress } from "./ip-literal.js";
import { MAX_WEBHOOK_URL_LENGTH } from "./limits.js";

/**
 * Where a webhook may point as written (spec 4.10, 7): https, no userinfo, and no non-public IP
 * literal in any notation (the URL parser canonicalises 2130706433, 0x7f.1 and 0177.0.0.1 to
 * 127.0.0.1). DNS and the connect-time check are the server's (src/services/watch/webhook-url.ts).
 */
export interface WebhookRules {
  /** ALLOW_PRIVATE_WEBHOOKS: http and loopback allowed (tests and demos only). */
  allowPrivate: boolean;
}

/** Always globally routed unicast; with allowPrivate, loopback too. */
export const webhookAddressAllowed = (ip: string, allowPrivate: boolean): boolean =>
  isPublicAddress(ip) || (allowPrivate && isLoopbackAddress(ip));

/** RFC 6761: localhost and its subdomains never leave the machine. */
export const isLocalhostName = (host: string): boolean => {
  const h = host.toLowerCase().replace(/\.$/, "");
  return h === "localhost" || h.endsWith(".localhost");
};

/** What is wrong with a webhook URL as written, or undefined. No network access. */
export function webhookUrlProblem(raw: string, rules: WebhookRules): string | undefined {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  if (!URL.canParse(raw)) return "must be an absolute https URL";
  const u = new URL(raw);
  const schemes = rules.allowPrivate ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(u.protocol)) return rules.allowPrivate ? "must be an http(s) URL" : "must be an https URL";
  if (u.username !== "" || u.password !== "") return "must not carry a user name or password";
  if (isIpLiteral(u.hostname)) {
    return webhookAddressAllowed(u.hostname, rules.allowPrivate) ? undefined : "must not point at a private, loopback, link-local or otherwise non-public address";
  }
  if (isLocalhostName(u.hostname) && !rules.allowPrivate) return "must not point at localhost";
  return undefined;
}
