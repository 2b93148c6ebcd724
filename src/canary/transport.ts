import { fetch as undiciFetch } from "undici";
import { createGuardedDispatcher } from "../lib/ssrf-guard.js";

/** A paid request gets this long for its headers and its body (the check's own bound is CHECK_RUN_MS). */
const ANSWER_TIMEOUT_MS = 20_000;
/** A 402 may carry a 128 KiB challenge header, as the prober reads them. */
const MAX_HEADER_BYTES = (128 + 16) * 1024;

/**
 * undici's fetch through the SSRF-guarded dispatcher (private and loopback addresses refused
 * unless the deployment allows them: demo and tests), given the WHATWG Request the payer builds.
 */
export function guardedTransport(allowPrivate: boolean): { fetch: typeof fetch; close(): Promise<void> } {
  const dispatcher = createGuardedDispatcher({
    allowPrivate,
    connectTimeoutMs: 5_000,
    headersTimeoutMs: ANSWER_TIMEOUT_MS,
    bodyTimeoutMs: ANSWER_TIMEOUT_MS,
    maxHeaderSize: MAX_HEADER_BYTES,
  });
  const fetchImpl = async (input: Request) => {
    const body = input.body ? Buffer.from(await input.arrayBuffer()) : undefined;
    const res = await undiciFetch(input.url, { method: input.method, headers: [...input.headers], body, signal: input.signal, redirect: "manual", dispatcher });
    return res as unknown as Response;
  };
  return { fetch: fetchImpl as unknown as typeof fetch, close: () => dispatcher.close() };
}
