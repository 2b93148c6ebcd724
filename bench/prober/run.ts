import { readFileSync } from "node:fs";
import v8 from "node:v8";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { pino } from "pino";
import { Registry } from "prom-client";
import { loadConfig } from "../../src/config.js";
import { createAppContext, Readiness, type AppContext } from "../../src/context.js";
import { systemClock } from "../../src/lib/clock.js";
import { startProber } from "../../test/helpers/start-prober.js";
import { openBenchDb } from "../lib/bench-db.js";
import { seedFleet } from "./seed-fleet.js";
import { fleetAddress, spawnFleet } from "./fleet.js";

/**
 * npm run bench:prober — 100,000 endpoints on 1,000 loopback virtual hosts, one full probe
 * cycle into the database (PGlite, or PostgreSQL with BENCH_DATABASE_URL), every probe stored
 * (the confirmation probes of these new listings that fall due while the cycle drains included).
 * Prints probes/s, peak RSS, and last the ratio to the fleet server's own throughput measured
 * with autocannon in the same run. Targets: >= 1,000 probes/s, peak RSS <= 400 MB.
 */

const HOSTS = Number(process.env.BENCH_HOSTS ?? 1000);
const PER_HOST = Number(process.env.BENCH_PER_HOST ?? 100);
const TOTAL = HOSTS * PER_HOST;
const MB = 1024 * 1024;

const vmHwmMb = () => {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
};
const count = async (db: AppContext["db"], table: "probes" | "probe_hourly" | "host_checks" | "signal_snapshots") =>
  Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db.db)).rows[0]!.n);

/** The fleet server's own throughput: autocannon in a process of its own, before the cycle. */
async function fleetThroughput(port: number): Promise<number> {
  const cli = fileURLToPath(new URL("../../node_modules/autocannon/autocannon.js", import.meta.url));
  const url = `http://${fleetAddress(0)}:${port}/e/0`;
  const args = [cli, "-c", "64", "-d", "10", "-m", "POST", "-H", "content-type=application/json", "-b", "{}", "--json", url];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "ignore"] });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.once("exit", resolve));
  return (JSON.parse(out) as { requests: { average: number } }).requests.average;
}

async function main() {
  const fleet = await spawnFleet(HOSTS);
  const db = await openBenchDb(process.env.BENCH_DATABASE_URL || undefined);
  try {
    const heapLimit = v8.getHeapStatistics().heap_size_limit / MB;
    console.log(`database: ${db.label}; fleet: ${HOSTS} hosts x ${PER_HOST} endpoints on port ${fleet.port}; V8 heap limit ${heapLimit.toFixed(0)} MB`);
    const fleetRps = await fleetThroughput(fleet.port);
    console.log(`fleet server alone (autocannon, 64 connections, 10 s, own process): ${fleetRps.toFixed(0)} req/s`);
    let t = performance.now();
    await seedFleet(db, fleet.port, HOSTS, PER_HOST);
    console.log(`seeded ${TOTAL} listings in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    const config = loadConfig({ DATA_DIR: "memory://", ALLOW_PRIVATE_TARGETS: "true", PROBE_INTERVAL_SECONDS: "600", LOG_LEVEL: "info" });
    const log = pino({ level: "info" }, pino.destination(2));
    const metrics = new Registry();
    const ctx = createAppContext({ config, db, clock: systemClock, log, metrics, readiness: new Readiness() });

    const rssStart = process.memoryUsage.rss() / MB;
    let peakRss = rssStart;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss() / MB)), 100);
    t = performance.now();
    const cpu = process.cpuUsage();
    const prober = startProber(ctx, { runAtStart: false, tickMs: 3_600_000 });
    const summary = await prober.runNow();
    await prober.stop();
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage.rss() / MB);
    const hwm = vmHwmMb();
    const cpuUsed = process.cpuUsage(cpu);
    const cpuShare = (cpuUsed.user + cpuUsed.system) / 1000 / (performance.now() - t);

    const stored = await count(db, "probes");
    const probesPerSecond = summary.done / (summary.probeMs / 1000);
    console.log(
      `cycle: due ${summary.due}, done ${summary.done}, errors ${summary.errors}, host checks ${summary.hostChecks.done}; ` +
        `probing (claim -> last write, rollups included) ${(summary.probeMs / 1000).toFixed(1)} s, ` +
        `snapshots ${summary.snapshots} in ${(summary.snapshotMs / 1000).toFixed(1)} s, whole cycle ${(summary.durationMs / 1000).toFixed(1)} s`,
    );
    console.log(`prober process CPU: ${(cpuShare * 100).toFixed(0)}% of one core over the cycle`);
    console.log(
      `stored: probes ${stored}, hourly buckets ${await count(db, "probe_hourly")}, host checks ${await count(db, "host_checks")}, snapshots ${await count(db, "signal_snapshots")}`,
    );
    const mem = process.memoryUsage();
    console.log(
      `memory: RSS at start ${rssStart.toFixed(0)} MB, peak RSS during the cycle ${peakRss.toFixed(0)} MB, VmHWM ${hwm.toFixed(0)} MB (target <= 400 MB); ` +
        `now: JS heap ${(mem.heapUsed / MB).toFixed(0)} MB, external (PGlite WASM memory, buffers) ${(mem.external / MB).toFixed(0)} MB`,
    );
    // Every listing is new here, so the cycle also runs the confirmation probes that fall due
    // while it drains (decision 0014): each listing is probed once, and up to twice more.
    if (stored !== summary.done || stored < TOTAL || stored > TOTAL * 3) console.log(`FAIL: ${stored} probes stored, ${summary.done} done, ${TOTAL} listings`);
    else console.log(`probes: ${TOTAL} first probes and ${stored - TOTAL} confirmations that fell due during the cycle`);

    await ctx.services.close();
    console.log(
      `probes/s = ${probesPerSecond.toFixed(0)}; fleet server alone = ${fleetRps.toFixed(0)} req/s; ratio = ${(probesPerSecond / fleetRps).toFixed(3)}`,
    );
  } finally {
    await db.close();
    fleet.stop();
  }
}

await main();
