import type { BeforePaymentCreationHook } from "@x402/core/client";
import { refusalOf } from "./decision.js";
import { createGuardCore, type CheckOptions } from "./guard-core.js";
import { outcomeReporter, type ReportOutcomesOptions } from "./outcome-reporter.js";
import { RequestTap, tapAxios, tapFetch, type AxiosLike } from "./request-tap.js";

export type LookoutPolicyOptions = CheckOptions & {
  /** Opt-in: after each paid call through `policy.fetch`, report its outcome signed by the payer (decision 0052). */
  reportOutcomes?: ReportOutcomesOptions;
};

/** The hook, and the transport taps that tell it which request each 402 answered. */
export interface LookoutPolicy extends BeforePaymentCreationHook {
  /** The fetch to hand @x402/fetch: `wrapFetchWithPayment(policy.fetch(fetch), client)`. */
  fetch(inner?: typeof fetch): typeof fetch;
  /** Taps an axios instance; call it before `wrapAxiosWithPayment(instance, client)`. */
  axios<A extends AxiosLike>(instance: A): A;
}

/**
 * x402 Lookout as a payment policy of the official x402 SDK: a hook for an existing x402Client
 * (the one @x402/fetch or @x402/axios pays with), `client.onBeforePaymentCreation(policy)`, with
 * the agent's transport sent through `policy.fetch` or `policy.axios`. For each payment it checks
 * the request the agent made (URL and method, never the resource the 402 claims) and the
 * requirement selected for signing, with a signed verdict bound to that requirement, and aborts
 * the payment before anything is signed when the decision blocks. A 402 whose request the policy
 * did not see is refused (request_unknown); the SDK's registerPolicy is synchronous and sees
 * neither, so it is not used.
 */
export function lookoutPolicy(options: LookoutPolicyOptions): LookoutPolicy {
  const core = createGuardCore(options);
  const tap = new RequestTap(options.now);
  const report = options.reportOutcomes ? outcomeReporter(options.lookout.baseUrl, options.reportOutcomes) : undefined;

  const hook: BeforePaymentCreationHook = async ({ paymentRequired, selectedRequirements }) => {
    const requests = tap.requestsFor(paymentRequired);
    // One challenge drawn by two different requests cannot say which one is being paid.
    const request = requests.length === 1 ? requests[0]! : null;
    const d = await core.payment(request, paymentRequired, selectedRequirements);
    if (d?.decision === "block") return { abort: true, reason: `x402 Lookout: ${refusalOf(d).message}` };
  };
  return Object.assign(hook, {
    fetch: (inner: typeof fetch = globalThis.fetch) => tapFetch(tap, inner, report),
    axios: <A extends AxiosLike>(instance: A) => (tapAxios(tap, instance), instance),
  });
}
