import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface PageRequest {
  offset: number;
  limit: number;
  /** 1-based count of requests this server has answered so far, this one included. */
  call: number;
}

/** What a test wants instead of the normal page: a status and body, a hang, or a dropped socket. */
export type Fault =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { raw: string | Uint8Array; contentType?: string }
  /** Declares the whole body's length, sends only `sent`, then drops the connection. */
  | { truncate: string; declaredBytes: number }
  | "hang"
  | "destroy";

export interface CatalogServer {
  url: string;
  items: unknown[];
  requests: PageRequest[];
  /** Largest page the server hands out, whatever limit the client asks for. */
  maxLimit: number;
  /** Delay before each answer, so concurrent pollers overlap. */
  delayMs: number;
  fault: ((req: PageRequest) => Fault | undefined) | undefined;
  close(): Promise<void>;
}

/**
 * A real x402 Bazaar discovery endpoint on a loopback port, serving `items` by limit/offset.
 * Hanging responses are ended by close(), so no test leaves a socket open.
 */
export async function startCatalogServer(items: unknown[] = [], path = "/discovery/resources"): Promise<CatalogServer> {
  const hanging = new Set<ServerResponse>();
  const state: CatalogServer = { url: "", items, requests: [], maxLimit: 1000, delayMs: 0, fault: undefined, close: async () => undefined };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (state.delayMs > 0) setTimeout(() => answer(req, res), state.delayMs);
    else answer(req, res);
  });
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const u = new URL(req.url ?? "/", "http://x");
    const q: PageRequest = {
      offset: Number(u.searchParams.get("offset") ?? 0),
      limit: Number(u.searchParams.get("limit") ?? 100),
      call: state.requests.length + 1,
    };
    state.requests.push(q);
    const fault = state.fault?.(q);
    if (fault === "hang") return void hanging.add(res);
    if (fault === "destroy") return void req.socket.destroy();
    res.setHeader("content-type", "application/json");
    if (fault && "truncate" in fault) {
      res.writeHead(200, { "content-length": String(fault.declaredBytes) });
      return void res.write(fault.truncate, () => req.socket.destroy());
    }
    if (fault && "raw" in fault) {
      if (fault.contentType) res.setHeader("content-type", fault.contentType);
      return void res.end(fault.raw);
    }
    if (fault) return void res.writeHead(fault.status, fault.headers).end(JSON.stringify(fault.body ?? { error: "fault" }));
    const limit = Math.min(q.limit, state.maxLimit);
    const page = state.items.slice(q.offset, q.offset + limit);
    res.end(JSON.stringify({ x402Version: 2, items: page, pagination: { limit, offset: q.offset, total: state.items.length } }));
  };
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  state.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}
