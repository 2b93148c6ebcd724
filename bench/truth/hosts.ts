import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

/** What an endpoint answers a naked request with; `refused` is a host that stopped listening. */
export type EndpointState = "v2" | "v1" | "500" | "refused";
export const isDown = (s: EndpointState) => s === "500" || s === "refused";

/** Every request a host saw: when it arrived (epoch ms), and the most that were in flight at once. */
export interface HostLog {
  arrivals: number[];
  maxInFlight: number;
}

/** The terms one host's challenges carry (equal to its catalog entries'). */
export interface Terms {
  network: string;
  asset: string;
  payTo: string;
  amountAtomic: string;
}

export type HostRequest =
  { op: "start"; id: number; terms: Terms } | { op: "set"; id: number; states: Array<[string, EndpointState]> } | { op: "refuse"; id: number } | { op: "logs" };
export type HostReply = { op: "ready" } | { op: "started"; id: number; origin: string } | { op: "logs"; logs: Array<[number, HostLog]> };

export interface BenchHost {
  id: number;
  origin: string;
  /** What the endpoint at `path` answers from now on (`refused` stops the whole host). */
  set(path: string, state: EndpointState): void;
}

export interface HostProcess {
  start(terms: Terms): Promise<BenchHost>;
  /** Each host's request log, by host id. */
  logs(): Promise<Map<number, HostLog>>;
  stop(): void;
}

/** Starts the process that serves every bench host (host-server.ts). */
export async function spawnHosts(): Promise<HostProcess> {
  const entry = fileURLToPath(new URL("./host-server.ts", import.meta.url));
  const child = fork(entry, [], { execArgv: ["--conditions=@x402-lookout/source", "--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const waiters: Array<(m: HostReply) => boolean> = [];
  child.on("message", (m: HostReply) => {
    const i = waiters.findIndex((w) => w(m));
    if (i >= 0) waiters.splice(i, 1);
  });
  const reply = <T>(pick: (m: HostReply) => T | undefined) =>
    new Promise<T>((resolve) =>
      waiters.push((m) => {
        const v = pick(m);
        if (v === undefined) return false;
        resolve(v);
        return true;
      }),
    );
  await reply((m) => (m.op === "ready" ? true : undefined));
  const send = (m: HostRequest) => child.send(m);
  let next = 0;
  return {
    async start(terms) {
      const id = next++;
      const origin = reply((m) => (m.op === "started" && m.id === id ? m.origin : undefined));
      send({ op: "start", id, terms });
      return { id, origin: await origin, set: (path, state) => send(state === "refused" ? { op: "refuse", id } : { op: "set", id, states: [[path, state]] }) };
    },
    async logs() {
      const logs = reply((m) => (m.op === "logs" ? m.logs : undefined));
      send({ op: "logs" });
      return new Map(await logs);
    },
    stop: () => void child.kill("SIGTERM"),
  };
}
