/**
 * Source of the tiny Node program that sits between the service and anvil (run with `node -e`).
 *
 * anvil has no parent-death option, so a SIGKILLed service would leave it running. The watchdog
 * holds the read end of a pipe whose only writer is the service: the kernel closes that pipe
 * however the service dies, the watchdog sees end-of-file and kills anvil. It also reports
 * anvil's pid and listening port as JSON lines, and drains anvil's per-request log so a full
 * pipe can never stall the chain.
 *
 * Kept as a string (not a file) so it runs the same from tsx sources and from compiled dist.
 */
export const WATCHDOG_CONFIG_ENV = "LOOKOUT_ANVIL_WATCHDOG";

export type WatchdogMessage =
  | { type: "spawned"; pid: number }
  | { type: "listening"; host: string; port: number }
  | { type: "exit"; code: number | null; signal: string | null }
  | { type: "error"; message: string };

export const WATCHDOG_SOURCE = String.raw`
"use strict";
const { spawn } = require("node:child_process");
const { bin, args } = JSON.parse(process.env.${WATCHDOG_CONFIG_ENV});
const env = { ...process.env };
delete env.${WATCHDOG_CONFIG_ENV};

let stopping = false;
let anvil;
function report(message) {
  try { process.stdout.write(JSON.stringify(message) + "\n"); } catch { /* parent gone */ }
}
function stop() {
  if (stopping) return;
  stopping = true;
  if (!anvil || anvil.exitCode !== null || anvil.signalCode !== null) process.exit(0);
  anvil.kill("SIGTERM");
  setTimeout(() => anvil.kill("SIGKILL"), 2000).unref();
}

// A write to a dead parent raises EPIPE; that is the parent's death notice, not a crash.
process.stdout.on("error", stop);
process.stdin.on("end", stop);
process.stdin.on("close", stop);
process.stdin.on("error", stop);
process.stdin.resume();
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, stop);
const parentPid = process.ppid;
setInterval(() => { if (process.ppid !== parentPid) stop(); }, 500).unref();

anvil = spawn(bin, args, { stdio: ["ignore", "pipe", "inherit"], env, windowsHide: true });
anvil.on("error", (error) => { report({ type: "error", message: String(error && error.message || error) }); process.exit(1); });
anvil.on("exit", (code, signal) => { report({ type: "exit", code, signal }); process.exit(0); });
if (anvil.pid !== undefined) report({ type: "spawned", pid: anvil.pid });

let seen = "";
let listening = false;
anvil.stdout.setEncoding("utf8");
anvil.stdout.on("data", (chunk) => {
  if (listening) return;
  seen = (seen + chunk).slice(-4096);
  const match = /Listening on (\S+):(\d+)/.exec(seen);
  if (match) {
    listening = true;
    report({ type: "listening", host: match[1], port: Number(match[2]) });
  }
});
`;
