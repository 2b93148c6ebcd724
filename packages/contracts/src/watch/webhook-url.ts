import { MAX_WEBHOOK_URL_LENGTH } from "./limits.js";

/**
 * Where a webhook may point, as far as the text of the URL tells (docs/webhooks.md "Security"): https and no
 * userinfo. IP literals and DNS need the server's address rules (src/services/watch/webhook-url.ts).
 */
export interface WebhookRules {
  /** ALLOW_PRIVATE_WEBHOOKS: http and loopback allowed (tests and demos only). */
  allowPrivate: boolean;
}

/** RFC 6761: localhost and its subdomains never leave the machine. */
export const isLocalhostName = (host: string): boolean => {
  const h = host.toLowerCase().replace(/\.$/, "");
  return h === "localhost" || h.endsWith(".localhost");
};

/** What is wrong with a webhook URL's syntax, or undefined. No network access, no address rules. */
export function webhookUrlSyntaxProblem(raw: string, rules: WebhookRules): string | undefined {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  if (!URL.canParse(raw)) return "must be an absolute https URL";
  const u = new URL(raw);
  const schemes = rules.allowPrivate ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(u.protocol)) return rules.allowPrivate ? "must be an http(s) URL" : "must be an https URL";
  if (u.username !== "" || u.password !== "") return "must not carry a user name or password";
  if (isLocalhostName(u.hostname) && !rules.allowPrivate) return "must not point at localhost";
  return undefined;
}
