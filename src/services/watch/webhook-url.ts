import { isIpLiteral, type LookupFunction } from "../../lib/ssrf-guard.js";
import { MAX_WEBHOOK_URL_LENGTH, SUBSCRIBE_DNS_TIMEOUT_MS } from "./constants.js";
import { isLocalhostName, lookupAll, systemLookup, webhookAddressAllowed } from "./webhook-address.js";

/**
 * Where a webhook may point (spec 4.10, 7): https, no userinfo, and only to public addresses,
 * whether the host is written as an IP literal (any notation: the URL parser canonicalises
 * 2130706433, 0x7f.1 and 0177.0.0.1 to 127.0.0.1) or reached through DNS. The same rule runs
 * again on the resolved address at every connect (webhook-dispatcher.ts).
 */
export interface WebhookRules {
  /** ALLOW_PRIVATE_WEBHOOKS: http and loopback allowed (tests and demos only). */
  allowPrivate: boolean;
}

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

export type TargetCheck = { ok: true } | { ok: false; status: 400 | 503; message: string };

const NO_SUCH_NAME = new Set(["ENOTFOUND", "ENODATA", "EAI_NONAME", "EAI_NODATA"]);

/**
 * The subscription-time check: the URL as written, then every address its name resolves to.
 * A name that does not exist is a 400; a resolver that fails or is slow is a 503 (retry later).
 */
export async function checkWebhookTarget(raw: string, rules: WebhookRules, lookup: LookupFunction = systemLookup): Promise<TargetCheck> {
  const problem = webhookUrlProblem(raw, rules);
  if (problem) return { ok: false, status: 400, message: `webhookUrl ${problem}` };
  const host = new URL(raw).hostname;
  if (isIpLiteral(host)) return { ok: true };
  let timer: NodeJS.Timeout | undefined;
  try {
    const addresses = await Promise.race([
      lookupAll(lookup, host),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error("DNS lookup timed out"), { code: "ETIMEOUT" })), SUBSCRIBE_DNS_TIMEOUT_MS);
      }),
    ]);
    if (addresses.length === 0) return { ok: false, status: 400, message: "webhookUrl host does not resolve to any address" };
    if (addresses.some((a) => !webhookAddressAllowed(a.address, rules.allowPrivate))) {
      return { ok: false, status: 400, message: "webhookUrl resolves to a private, loopback, link-local or otherwise non-public address" };
    }
    return { ok: true };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "";
    if (NO_SUCH_NAME.has(code)) return { ok: false, status: 400, message: "webhookUrl host does not resolve" };
    return { ok: false, status: 503, message: "the webhookUrl host could not be resolved right now; retry shortly" };
  } finally {
    clearTimeout(timer);
  }
}
