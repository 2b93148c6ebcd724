import type { BeforePaymentCreationHook, PaymentCreationContext } from "@x402/core/client";
import { refusalOf } from "./decision.js";
import { createGuardCore, type CheckOptions } from "./guard-core.js";
import { defaultTarget } from "./target.js";

export interface LookoutPolicyOptions extends CheckOptions {
  /**
   * The endpoint to check for the 402's resource URL, or null to pay it unchecked. Default: the
   * URL without query and fragment; the Lookout service itself goes unchecked. A resource that is
   * missing or not http(s) cannot be checked and blocks (check_failed) unless this maps it.
   */
  target?: (url: URL) => string | null;
}

/**
 * x402 Lookout as a payment policy of the official x402 SDK: a hook for an existing x402Client
 * (the one @x402/fetch or @x402/axios pays with), `client.onBeforePaymentCreation(lookoutPolicy({ lookout }))`.
 * For each payment it checks the requirement the client selected for signing (payTo, asset,
 * network, amount) at the 402's resource URL with a signed verdict bound to that requirement,
 * and aborts the payment, before anything is signed, when the decision blocks. The SDK's
 * registerPolicy is not used: it is synchronous and sees neither the resource nor the 402.
 */
export function lookoutPolicy(options: LookoutPolicyOptions): BeforePaymentCreationHook {
  const core = createGuardCore(options);
  const lookoutOwn = defaultTarget(options.lookout.baseUrl);
  // Only http(s) endpoints have verdicts: by default another scheme is a check that cannot be made, not a pass.
  const targetOf = options.target ?? ((u: URL) => (u.protocol === "http:" || u.protocol === "https:" ? lookoutOwn(u) : undefined));

  return async ({ paymentRequired, selectedRequirements }) => {
    const resource = resourceOf({ paymentRequired, selectedRequirements });
    const url = resource === null ? null : URL.canParse(resource) ? new URL(resource) : null;
    const target = url === null ? undefined : targetOf(url);
    if (target === null) return;
    const d =
      target === undefined
        ? core.unchecked(resource ?? "", new Error(`the 402 names no checkable resource URL (${JSON.stringify(resource)})`))
        : await core.quote({ url: target }, paymentRequired, selectedRequirements);
    if (d.decision === "block") return { abort: true, reason: `x402 Lookout: ${refusalOf(d).message}` };
  };
}

/** The resource being paid: v2 names it once in the 402, v1 in each requirement. */
function resourceOf({ paymentRequired, selectedRequirements }: PaymentCreationContext): string | null {
  const v2 = (paymentRequired as { resource?: { url?: unknown } }).resource?.url;
  const v1 = (selectedRequirements as { resource?: unknown }).resource;
  const found = typeof v2 === "string" ? v2 : v1;
  return typeof found === "string" && found !== "" ? found : null;
}
