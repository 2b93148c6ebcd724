import { AsyncLocalStorage } from "node:async_hooks";
import type { x402Client } from "@x402/core/client";
import type { LookoutClient } from "../client.js";
import type { AlternativesAnswer } from "../types.js";
import { refusalOf, type GuardDecision } from "./decision.js";
import { createGuardCore, type CheckOptions } from "./guard-core.js";
import { defaultTarget } from "./target.js";
import type { GuardedCall } from "./quote-check.js";

export type { GuardDecision } from "./decision.js";

export interface GuardOptions extends CheckOptions {
  /** The x402 Lookout client that pays for the checks (its own signer or credit bundle). */
  lookout: Pick<LookoutClient, "baseUrl" | "preflight" | "alternatives">;
  /** On a block, also buy /alternatives (0.005 USDC) and attach them to the error. */
  alternatives?: boolean | { limit?: number; taskClass?: string };
  /**
   * The x402 client behind the paying fetch. Given, the guard also checks each payment when the
   * client is about to sign it, as lookoutPolicy does, for the requests made through this guard
   * (docs/clients.md).
   */
  x402Client?: Pick<x402Client, "onBeforePaymentCreation">;
}

/**
 * Wraps an agent's paying fetch (e.g. @x402/fetch's wrapFetchWithPayment) so that every request
 * is checked with x402 Lookout's preflight before it is sent, and so before any payment: a
 * blocked endpoint gets no request at all, the agent's own payment happens only once the guard
 * lets the request through. failMode and unknown decide outages and endpoints with no evidence.
 */
export function guardFetch(fetch: typeof globalThis.fetch, options: GuardOptions): typeof globalThis.fetch {
  const core = createGuardCore(options);
  const targetOf = options.target ?? defaultTarget(options.lookout.baseUrl);
  const calls = new AsyncLocalStorage<GuardedCall>();

  async function refusal(d: GuardDecision): Promise<Error> {
    return refusalOf(d, (d.report || d.snapshotEntry) && options.alternatives ? await alternativesFor(d.url) : undefined);
  }

  // Runs inside the x402 client's payment creation, for the calls made through this guard: the request it sent is judged.
  options.x402Client?.onBeforePaymentCreation(async ({ paymentRequired, selectedRequirements }) => {
    const call = calls.getStore();
    if (!call) return;
    const d = await core.payment({ url: call.requested ?? call.url, method: call.method ?? "GET" }, paymentRequired, selectedRequirements);
    if (d?.decision !== "block") return;
    call.refusal = await refusal(d);
    return { abort: true, reason: (call.refusal as Error).message };
  });

  async function alternativesFor(url: string): Promise<AlternativesAnswer | undefined> {
    const opts = typeof options.alternatives === "object" ? options.alternatives : {};
    // None found (404) or the service failing must not hide the block itself.
    return options.lookout.alternatives({ url, ...opts }).catch(() => undefined);
  }

  return async (input, init) => {
    const requested = input instanceof Request ? input.url : String(input);
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    const target = targetOf(new URL(requested));
    // Unchecked at this stage (the Lookout service, or the agent's own choice): its payment is still judged.
    if (target === null) return calls.run({ url: requested, requested, method }, () => fetch(input, init));
    const d = await core.endpoint(target, method);
    if (d.decision === "block") throw await refusal(d);
    const call: GuardedCall = { url: target, requested, method };
    try {
      return await calls.run(call, () => fetch(input, init));
    } catch (err) {
      // The SDK wraps a refused payment in a plain Error; the agent gets the guard's own.
      throw call.refusal ?? err;
    }
  };
}
