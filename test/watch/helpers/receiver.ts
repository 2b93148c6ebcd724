import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/** One request the receiver got, checked with the standardwebhooks library as a customer would. */
export interface Received {
  path: string;
  id: string;
  timestamp: string;
  /** The webhook-signature header as sent. */
  signature: string;
  body: string;
  verified: boolean;
  verifyError?: string;
  payload: any;
  at: number;
}

/** What the receiver answers a request with: a status (and headers), or never answering. */
export type Answer = { status: number; headers?: Record<string, string>; delayMs?: number } | "hang";

export interface Receiver {
  url: string;
  received: Received[];
  /** Verify requests to `path` with this signing secret (`whsec_...`). */
  trust(path: string, signingSecret: string): void;
  /** How to answer the n-th request (0-based) to a path; default 204. */
  answer(path: string, fn: (n: number) => Answer): void;
  on(path: string): Received[];
  close(): Promise<void>;
}

/** A real webhook receiver on an ephemeral loopback port. */
export async function startReceiver(): Promise<Receiver> {
  const secrets = new Map<string, string>();
  const answers = new Map<string, (n: number) => Answer>();
  const counts = new Map<string, number>();
  const received: Received[] = [];

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const path = req.url ?? "/";
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    const r: Received = {
      path,
      id: headers["webhook-id"] ?? "",
      timestamp: headers["webhook-timestamp"] ?? "",
      signature: headers["webhook-signature"] ?? "",
      body,
      verified: false,
      payload: undefined,
      at: Date.now(),
    };
    const secret = secrets.get(path);
    try {
      if (!secret) throw new Error("no secret trusted for this path");
      r.payload = new Webhook(secret).verify(body, headers);
      r.verified = true;
    } catch (err) {
      r.verifyError = (err as Error).message;
    }
    received.push(r);
    const n = counts.get(path) ?? 0;
    counts.set(path, n + 1);
    const answer = answers.get(path)?.(n) ?? { status: 204 };
    if (answer === "hang") return;
    const reply = () => res.writeHead(answer.status, answer.headers).end();
    if (answer.delayMs) setTimeout(reply, answer.delayMs);
    else reply();
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => handle(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    trust: (path, s) => secrets.set(path, s),
    answer: (path, fn) => answers.set(path, fn),
    on: (path) => received.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
