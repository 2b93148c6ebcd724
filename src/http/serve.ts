import { serve, type ServerType } from "@hono/node-server";
import type { Server } from "node:http";
import { randomUUID } from "node:crypto";
import { createServer, type AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import type { Hono } from "hono";
import type { AppEnv } from "./app-env.js";

export interface RunningServer {
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), then closes. */
  close(graceMs?: number): Promise<void>;
}

export async function listen(app: Pick<Hono<AppEnv>, "fetch">, host: string, port: number): Promise<RunningServer> {
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(s));
    s.once("error", reject);
  });
  const http = server as Server;
  // Keep-alive sockets would hold close() open; idle ones are closed during drain.
  http.keepAliveTimeout = 5_000;
  http.on("clientError", answerClientError);
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

/**
 * Requests Node's HTTP parser refuses before the app sees them (a header block over 16 KiB,
 * malformed HTTP) get the same JSON error body as every other error, not Node's bare status line.
 */
function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) return void socket.destroy();
  const [status, reason, code, message] =
    err.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large", "headers_too_large", "request headers exceed 16 KiB"]
      : [400, "Bad Request", "bad_request", "malformed HTTP request"];
  const body = JSON.stringify({ error: code, message, request_id: randomUUID() });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * Whether `port` can be listened on, asked before anything else starts (database, devnet, demo
 * fleet): one plain line for the operator, or undefined. Another process may still take the
 * port in between; listen() then fails as before.
 */
export function portProblem(host: string, port: number, setting = { port: "PORT", host: "HOST" }): Promise<string | undefined> {
  if (port === 0) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", (err: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`;
      if (err.code === "EADDRINUSE") resolve(`port ${port} is in use: set ${setting.port} or stop the other process`);
      else if (err.code === "EACCES") resolve(`port ${port} needs privileges this process lacks: set ${setting.port} to 1024 or above`);
      else if (err.code === "EADDRNOTAVAIL") resolve(`cannot listen on ${where}: ${host} is not an address of this machine (set ${setting.host})`);
      else resolve(`cannot listen on ${where}: ${err.message}`);
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}
