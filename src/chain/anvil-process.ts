import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { Logger } from "pino";
import { resolveAnvilBinary } from "./anvil-binary.js";
import { WATCHDOG_CONFIG_ENV, WATCHDOG_SOURCE, type WatchdogMessage } from "./anvil-watchdog.js";
import { killOnExit } from "./exit-cleanup.js";

export interface AnvilProcess {
  rpcUrl: string;
  port: number;
  pids: { watchdog: number; anvil: number };
  /** Resolves once anvil and its watchdog have exited. Safe to call more than once. */
  stop(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;

function killQuietly(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/** Starts anvil on 127.0.0.1 behind the watchdog and resolves once it listens. */
export async function spawnAnvil(opts: { log: Logger; port?: number; args: string[] }): Promise<AnvilProcess> {
  const { log } = opts;
  const args = ["--host", "127.0.0.1", "--port", String(opts.port ?? 0), ...opts.args];
  const env: NodeJS.ProcessEnv = { ...process.env, [WATCHDOG_CONFIG_ENV]: JSON.stringify({ bin: resolveAnvilBinary(), args }) };
  // The watchdog is plain Node; loaders meant for the service (tsx, vitest) would only slow it.
  delete env.NODE_OPTIONS;

  const watchdog = spawn(process.execPath, ["-e", WATCHDOG_SOURCE], {
    stdio: ["pipe", "pipe", "pipe"],
    env,
    // Own process group: a terminal's Ctrl+C reaches only the service, which can then finish
    // in-flight settlements before it stops the chain, instead of anvil dying underneath it.
    detached: true,
    windowsHide: true,
  });

  let anvilPid: number | undefined;
  let stderrTail = "";
  // 'error' without 'exit' happens when the watchdog could not be spawned at all.
  const exited = new Promise<void>((resolve) => {
    watchdog.once("exit", () => resolve());
    watchdog.once("error", () => resolve());
  });
  // SIGTERM, not SIGKILL, for the watchdog: it then still reaps anvil instead of leaving a zombie.
  const unregister = killOnExit(() => {
    killQuietly(anvilPid, "SIGKILL");
    killQuietly(watchdog.pid, "SIGTERM");
  });
  void exited.then(() => {
    anvilPid = undefined;
    unregister();
  });

  watchdog.stderr.setEncoding("utf8");
  watchdog.stderr.on("data", (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-2000);
    for (const line of chunk.split("\n")) if (line.trim()) log.warn({ anvil: line.trim() }, "anvil stderr");
  });

  const listening = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`anvil did not start listening within ${STARTUP_TIMEOUT_MS} ms`)), STARTUP_TIMEOUT_MS);
    const settle = () => clearTimeout(timer);
    watchdog.once("error", (error) => {
      settle();
      reject(error);
    });
    void exited.then(() => {
      settle();
      reject(new Error(`anvil exited during start-up${stderrTail ? `: ${stderrTail.trim()}` : ""}`));
    });
    createInterface({ input: watchdog.stdout }).on("line", (line) => {
      let message: WatchdogMessage;
      try {
        message = JSON.parse(line) as WatchdogMessage;
      } catch {
        return;
      }
      if (message.type === "spawned") anvilPid = message.pid;
      else if (message.type === "listening") {
        settle();
        resolve(message.port);
      } else if (message.type === "error") log.error({ err: message.message }, "anvil failed to start");
      else log.debug({ code: message.code, signal: message.signal }, "anvil exited");
    });
  });

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      // Closing the lifeline is the one stop signal the watchdog needs; it kills anvil and exits.
      watchdog.stdin.end();
      const timedOut = await Promise.race([
        exited.then(() => false),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(true), STOP_TIMEOUT_MS).unref()),
      ]);
      if (timedOut) {
        log.warn("anvil did not stop in time; killing it");
        killQuietly(anvilPid, "SIGKILL");
        killQuietly(watchdog.pid, "SIGKILL");
        await exited;
      }
    })();
    return stopping;
  };

  let port: number;
  try {
    port = await listening;
  } catch (error) {
    await stop();
    throw error;
  }
  if (anvilPid === undefined || watchdog.pid === undefined) {
    await stop();
    throw new Error("anvil started without reporting its pid");
  }
  return { rpcUrl: `http://127.0.0.1:${port}`, port, pids: { watchdog: watchdog.pid, anvil: anvilPid }, stop };
}
