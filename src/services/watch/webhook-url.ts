import { isIpLiteral, type LookupFunction } from "../../lib/ssrf-guard.js";
import { webhookUrlSyntaxProblem, type WebhookRules } from "@x402-lookout/contracts/watch/webhook-url";
import { SUBSCRIBE_DNS_TIMEOUT_MS } from "./constants.js";
import { lookupAll, systemLookup, webhookAddressAllowed } from "./webhook-address.js";

export type { WebhookRules };

/**
 * A host written as an IP literal in any notation (the URL parser canonicalises 2130706433,
 * 0x7f.1 and 0177.0.0.1 to 127.0.0.1) that the rules do not allow, or undefined.
 */
function literalAddressProblem(raw: string, rules: WebhookRules): string | undefined {
  const host = URL.canParse(raw) ? new URL(raw).hostname : "";
  if (!isIpLiteral(host) || webhookAddressAllowed(host, rules.allowPrivate)) return undefined;
  return "must not point at a private, loopback, link-local or otherwise non-public address";
}

/** What is wrong with a webhook URL as written, or undefined: its syntax, then an IP literal's address. No network access. */
export const webhookUrlProblem = (raw: string, rules: WebhookRules): string | undefined =>
  webhookUrlSyntaxProblem(raw, rules) ?? literalAddressProblem(raw, rules);

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
