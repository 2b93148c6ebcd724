import type { Context } from "hono";
import type { UnofficialStatusCode } from "hono/utils/http-status";

/**
 * nginx's "client closed request": the status logged and counted for a request whose client
 * left before the answer was written. Nobody receives it, and it is not an outage.
 */
export const CLIENT_CLOSED_REQUEST = 499 as UnofficialStatusCode;

/** Whether the client closed the connection (@hono/node-server then aborts the request's signal). */
export const clientGone = (c: Context): boolean => c.req.raw.signal.aborted;

/**
 * Whether `err` is that abort itself (the signal's AbortError, or Node's "aborted" ECONNRESET of a
 * body cut off mid-read), not a dependency that failed while the client happened to leave: that
 * one is still an outage and is reported as one.
 */
export function isClientAbort(err: unknown, c: Context): boolean {
  const signal = c.req.raw.signal;
  if (!signal.aborted) return false;
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    if (e === signal.reason || e.name === "AbortError") return true;
    if ((e as { code?: unknown }).code === "ECONNRESET" && e.message === "aborted") return true;
    if (e.message === String(signal.reason)) return true; // "Client connection prematurely closed."
  }
  return false;
}
