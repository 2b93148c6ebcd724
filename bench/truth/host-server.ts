import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { EndpointState, HostLog, HostRequest, HostReply, Terms } from "./hosts.js";

/**
 * The bench hosts, in a process of their own (started by hosts.ts), so the time a request
 * arrives is what a host sees, not when the service's busy event loop got round to it. Each
 * host is a server on 127.0.0.1 answering by path as the parent says; unknown paths get 404.
 */

/** Answers after this delay, so requests overlap as they would on a real host and concurrency shows. */
const ANSWER_DELAY_MS = 40;

function challengeV2(url: string, t: Terms): string {
  const accepts = [
    {
      scheme: "exact",
      network: t.network,
      amount: t.amountAtomic,
      asset: t.asset,
      payTo: t.payTo,
      maxTimeoutSeconds: 300,
      extra: { name: "USDC", version: "2" },
    },
  ];
  return Buffer.from(JSON.stringify({ x402Version: 2, resource: { url, mimeType: "application/json" }, accepts })).toString("base64");
}

function challengeV1(url: string, t: Terms): string {
  const accepts = [
    { scheme: "exact", network: "base-sepolia", maxAmountRequired: t.amountAtomic, resource: url, payTo: t.payTo, asset: t.asset, maxTimeoutSeconds: 300 },
  ];
  return JSON.stringify({ x402Version: 1, error: "X-PAYMENT header is required", accepts });
}

interface Host {
  state: Map<string, EndpointState>;
  log: HostLog;
  refuse(): void;
}
const hosts = new Map<number, Host>();
const send = (m: HostReply) => process.send!(m);

async function start(id: number, terms: Terms): Promise<string> {
  const state = new Map<string, EndpointState>();
  const log: HostLog = { arrivals: [], maxInFlight: 0 };
  let inFlight = 0;
  let origin = "";
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0]!;
    const s = state.get(path);
    if (s === "v2") res.writeHead(402, { "content-type": "application/json", "payment-required": challengeV2(origin + path, terms) }).end("{}");
    else if (s === "v1") res.writeHead(402, { "content-type": "application/json" }).end(challengeV1(origin + path, terms));
    else if (s === "500") res.writeHead(500, { "content-type": "text/plain" }).end("internal error");
    else res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  };
  const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    log.arrivals.push(performance.timeOrigin + performance.now());
    log.maxInFlight = Math.max(log.maxInFlight, ++inFlight);
    res.once("close", () => inFlight--);
    req.resume();
    req.once("end", () => setTimeout(() => answer(req, res), ANSWER_DELAY_MS));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const refuse = () => {
    server.close();
    server.closeAllConnections();
  };
  hosts.set(id, { state, log, refuse });
  return origin;
}

process.on("message", (m: HostRequest) => {
  if (m.op === "start") void start(m.id, m.terms).then((origin) => send({ op: "started", id: m.id, origin }));
  else if (m.op === "set") for (const [path, s] of m.states) hosts.get(m.id)!.state.set(path, s);
  else if (m.op === "refuse") hosts.get(m.id)!.refuse();
  else if (m.op === "logs") send({ op: "logs", logs: [...hosts].map(([id, h]) => [id, h.log]) });
});
process.on("disconnect", () => process.exit(0));
send({ op: "ready" });
