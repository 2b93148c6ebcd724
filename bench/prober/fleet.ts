import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** The i-th virtual host of the fleet: 127.0.1.1 .. 127.0.4.250 for 1,000 hosts. */
export const fleetAddress = (i: number) => `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`;

export interface Fleet {
  port: number;
  child: ChildProcess;
  stop(): void;
}

/** Starts the fleet server in its own process, so its CPU and memory are not the prober's. */
export async function spawnFleet(hosts: number): Promise<Fleet> {
  const entry = fileURLToPath(new URL("./fleet-server.ts", import.meta.url));
  const child = spawn(process.execPath, ["--conditions=@x402-lookout/source", "--import", "tsx", entry, String(hosts)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`fleet server exited with ${code}`)));
    lines.once("line", resolve);
  });
  const { port } = JSON.parse(first) as { port: number };
  return { port, child, stop: () => void child.kill("SIGTERM") };
}
