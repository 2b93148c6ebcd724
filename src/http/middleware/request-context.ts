import { randomUUID } from "node:crypto";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import type { Logger } from "../../lib/log.js";
import type { AppEnv } from "../app-env.js";

const SAFE_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** Request id (echoed in x-request-id), client IP and a child logger for every request. */
export function requestContext(log: Logger, trustProxy: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
    c.set("requestId", requestId);
    c.set("clientIp", clientIp(c, trustProxy));
    c.set("log", log.child({ request_id: requestId }));
    c.set("paid", false);
    c.set("settled", false);
    c.header("x-request-id", requestId);
    await next();
  };
}

/**
 * The socket's address, or with TRUST_PROXY the right-most X-Forwarded-For entry: the address
 * our own proxy saw. Left-most entries are whatever the client chose to send.
 */
function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const hops = c.req
      .header("x-forwarded-for")
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const last = hops?.at(-1);
    if (last) return last;
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown"; // app.request() in tests has no socket
  }
}
