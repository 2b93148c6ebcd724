import { readFileSync } from "node:fs";
import { pino } from "pino";
import { startDevnet, type Devnet } from "../../src/chain/devnet.js";

export const testLog = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

export function startTestDevnet(): Promise<Devnet> {
  return startDevnet({ log: testLog });
}

/** True while pid is a live process; a zombie (exited, not yet reaped) counts as gone. */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // Field 3 of /proc/<pid>/stat is the state; the command name before it is parenthesised.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return process.platform !== "linux";
  }
}

export async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}
