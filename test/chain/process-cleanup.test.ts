import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isProcessRunning, waitFor } from "./helpers.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/devnet-child.ts", import.meta.url));

interface Started {
  child: ChildProcess;
  pids: { watchdog: number; anvil: number };
  /** Every JSON line the fixture printed, the ready line first. */
  lines: unknown[];
  exit: Promise<[number | null, NodeJS.Signals | null]>;
}

async function startChild(mode: string, opts: { ownProcessGroup?: boolean } = {}): Promise<Started> {
  const child = spawn(process.execPath, ["--conditions=@x402-lookout/source", "--import", "tsx", FIXTURE, mode], {
    stdio: ["ignore", "pipe", "pipe"],
    detached: opts.ownProcessGroup ?? false,
  });
  const exit = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines: unknown[] = [];
  const ready = new Promise<Started["pids"]>((resolve, reject) => {
    createInterface({ input: child.stdout }).on("line", (line) => {
      lines.push(JSON.parse(line));
      if (lines.length === 1) resolve((lines[0] as { pids: Started["pids"] }).pids);
    });
    void exit.then(([code]) => reject(new Error(`fixture exited (${code}) before ready: ${stderr}`)));
  });
  return { child, pids: await ready, lines, exit };
}

function anvilGone(pids: Started["pids"]): Promise<boolean> {
  return waitFor(() => !isProcessRunning(pids.anvil) && !isProcessRunning(pids.watchdog), 5_000);
}

// Sequential on purpose: each case boots Node, tsx and anvil, and side by side they starve each
// other on a small CI machine.
describe("anvil never outlives the process that started it", () => {
  it("when that process is killed with SIGKILL (the watchdog sees its lifeline close)", async () => {
    const { child, pids, exit } = await startChild("hold");
    expect(isProcessRunning(pids.anvil)).toBe(true);
    child.kill("SIGKILL");
    expect((await exit)[1]).toBe("SIGKILL");
    expect(await anvilGone(pids)).toBe(true);
  });

  it.for(["SIGTERM", "SIGINT"] as const)("when it gets %s and has no handler of its own", async (signal) => {
    const { child, pids, exit } = await startChild("hold");
    child.kill(signal);
    // The default action still happens: the process dies of the signal, not a clean exit.
    expect((await exit)[1]).toBe(signal);
    expect(await anvilGone(pids)).toBe(true);
  });

  it("when the application handles SIGTERM itself and calls stop()", async () => {
    const { child, pids, exit } = await startChild("handled-sigterm");
    child.kill("SIGTERM");
    expect(await exit).toEqual([0, null]);
    expect(await anvilGone(pids)).toBe(true);
  });

  it("keeps the chain up through a terminal's Ctrl+C until the application stops it", async () => {
    const { child, pids, lines, exit } = await startChild("handled-sigint", { ownProcessGroup: true });
    if (child.pid === undefined) throw new Error("fixture has no pid");
    // A negative pid signals the whole process group, as a terminal does on Ctrl+C.
    process.kill(-child.pid, "SIGINT");
    expect(await exit).toEqual([0, null]);
    expect(lines[1]).toEqual({ rpcAlive: true });
    expect(await anvilGone(pids)).toBe(true);
  });

  it("when it exits without calling stop()", async () => {
    const { pids, exit } = await startChild("exit");
    expect(await exit).toEqual([0, null]);
    expect(await anvilGone(pids)).toBe(true);
  });

  it("when it dies of an uncaught exception", async () => {
    const { pids, exit } = await startChild("throw");
    expect((await exit)[0]).toBe(1);
    expect(await anvilGone(pids)).toBe(true);
  });
});
