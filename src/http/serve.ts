import { serve, type ServerType } from "@hono/node-server";
import type { Server } from "node:http";
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
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
