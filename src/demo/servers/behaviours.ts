import type { Context } from "hono";

/**
 * The flapping endpoint's phase. It is read from the wall clock, not a start time, so every
 * process running a fleet (and every test) agrees on whether it is up right now.
 */
export function flapIsDown(periodMs: number, nowMs: number = Date.now()): boolean {
  return Math.floor(nowMs / periodMs) % 2 === 1;
}

/** Milliseconds until the flapping endpoint changes phase. */
export function msToNextFlap(periodMs: number, nowMs: number = Date.now()): number {
  return periodMs - (nowMs % periodMs);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How broken services answer in the wild: an app error, a proxy page, a maintenance notice. */
export function failure(c: Context, status: number): Response {
  if (status === 502) {
    return c.html(
      "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>",
      502,
    );
  }
  if (status === 503) {
    c.header("retry-after", "120");
    return c.json({ error: "service_unavailable", message: "Scheduled maintenance, back soon." }, 503);
  }
  return c.json({ error: "internal_error", message: "Unhandled exception in request handler." }, status as 500);
}

export async function requestInput(c: Context): Promise<Record<string, unknown>> {
  if (c.req.method === "GET" || c.req.method === "HEAD") return c.req.query();
  const body: unknown = await c.req.json().catch(() => ({}));
  return body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
