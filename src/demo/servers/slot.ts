import { serve } from "@hono/node-server";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

type FetchHandler = (request: Request) => Response | Promise<Response>;

/**
 * A server listening on an ephemeral port before its app exists: demo apps need their own
 * origin (resource URLs, the reseller's upstream host), which is known only once bound.
 */
export interface ServerSlot {
  origin: string;
  /** host:port, as it appears in URLs. */
  hostPort: string;
  mount(fetch: FetchHandler): void;
  close(graceMs: number): Promise<void>;
}

const notMounted: FetchHandler = () => new Response("starting", { status: 503 });

export async function openSlot(host: string): Promise<ServerSlot> {
  let handler = notMounted;
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: (req) => handler(req), hostname: host, port: 0 }, () => resolve(s as Server));
    s.once("error", reject);
  });
  server.keepAliveTimeout = 5_000;
  const hostPort = `${host.includes(":") ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`;
  return {
    origin: `http://${hostPort}`,
    hostPort,
    mount: (fetch) => {
      handler = fetch;
    },
    close: (graceMs) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

/** host:port of a port that was free a moment ago and that nothing in the fleet listens on. */
export async function reserveDeadPort(host: string): Promise<string> {
  const slot = await openSlot(host);
  await slot.close(0);
  return slot.hostPort;
}
