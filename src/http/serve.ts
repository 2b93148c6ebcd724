import { serve, type ServerType } from "@hono/node-server";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { App } from "./app.js";

export interface RunningServer {
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), then closes. */
  close(graceMs?: number): Promise<void>;
}

export async function listen(app: App, host: string, port: number): Promise<RunningServer> {
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(s));
    s.once("error", reject);
  });
  const http = server as Server;
  // Keep-alive sockets would hold close() open; idle ones are closed during drain.
  http.keepAliveTimeout = 5_000;
  const address = http.address() as AddressInfo;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    close: (graceMs = 10_000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => http.closeAllConnections(), graceMs);
        force.unref();
        http.close(() => {
          clearTimeout(force);
          resolve();
        });
        http.closeIdleConnections();
      }),
  };
}
