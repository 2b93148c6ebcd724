import { setTimeout as sleep } from "node:timers/promises";

/** The longest the client waits between two asks for a pending settlement's answer. */
const MAX_WAIT_S = 15;

/**
 * While the service answers 202 settlement_pending, asks again with the same signed payment
 * (its payment-identifier proves it is the payer) until the answer comes or the call's time runs
 * out; the last answer is returned either way.
 */
export async function collectPending(first: Response, resend: () => Promise<Response>, signal: AbortSignal): Promise<Response> {
  let res = first;
  while (res.status === 202) {
    const wait = Math.min(Number(res.headers.get("retry-after")) || 5, MAX_WAIT_S) * 1000;
    const waited = await sleep(wait, true, { signal }).catch(() => false);
    if (!waited) return res;
    await res.body?.cancel();
    res = await resend();
  }
  return res;
}

/** Credits: the collected answer of a purchase is the 409 that carries the bundle it bought. */
export async function collectedCredit(res: Response): Promise<unknown> {
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { credit?: unknown } | null;
  return body?.credit ?? undefined;
}
