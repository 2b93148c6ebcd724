import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

export interface SpawnedService {
  child: ChildProcess;
  /** Parsed pino lines seen so far. */
  lines: Array<Record<string, unknown>>;
  stderr: string[];
  waitForLine(match: (line: Record<string, unknown>) => boolean, timeoutMs: number): Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
  cleanup(): void;
}

/** Runs src/main.ts as `npm start` does (node --import tsx), in its own data dir, and follows its log. */
export function spawnService(env: Record<string, string> = {}): SpawnedService {
  const dataDir = mkdtempSync(join(tmpdir(), "lookout-proc-"));
  const child = spawn(process.execPath, ["--conditions=@x402-lookout/source", "--import", "tsx", "src/main.ts"], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: Array<Record<string, unknown>> = [];
  const stderr: string[] = [];
  const waiters = new Set<() => void>();
  createInterface({ input: child.stdout! }).on("line", (l) => {
    try {
      lines.push(JSON.parse(l));
    } catch {
      lines.push({ raw: l });
    }
    for (const w of waiters) w();
  });
  createInterface({ input: child.stderr! }).on("line", (l) => stderr.push(l));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    lines,
    stderr,
    exited,
    waitForLine(match, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = lines.find(match);
          if (hit) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(hit);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching log line within ${timeoutMs} ms; stderr: ${stderr.join("\n")}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    cleanup() {
      if (child.exitCode === null) child.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
