/**
 * bench:load — 60 s of mixed traffic on the real app over 100,000 catalogued endpoints while
 * the prober works through a 10,000-endpoint loopback fleet (100 hosts, every endpoint once a
 * minute) and recomputes verdicts every 30 s. On PostgreSQL the prober is its own process
 * (`ROLE=prober`, the deployment shape of the README); PGlite cannot be shared, so there it runs
 * in the API's process. Credit-paid preflight runs flat out; the other routes at fixed rates.
 * Prints p50/p99 per route and the error count (target 0), then last the ratio of preflight
 * throughput under load to preflight throughput alone, measured first in the same run
 * (target >= 0.7).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { preflightBatchRoute } from "../../src/http/routes/preflight/preflight-batch.js";
import { forensicsRoute } from "../../src/http/routes/preflight/forensics.js";
import { alternativesRoute } from "../../src/http/routes/catalog/alternatives.js";
import { decoysRoute } from "../../src/http/routes/catalog/decoys.js";
import { systemClock } from "../../src/lib/clock.js";
import { startProber, startVerdicts } from "../../test/helpers/start-prober.js";
import { benchCredit, randomIp, randomListing, startBenchService, unpaid } from "../lib/bench-service.js";
import { load, summary } from "../lib/load.js";
import { seedFleet } from "../prober/seed-fleet.js";
import { spawnFleet } from "../prober/fleet.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const ALONE_SECONDS = Number(process.env.BENCH_ALONE_SECONDS ?? 15);
const FLEET_HOSTS = 100;
const FLEET_PER_HOST = 100;
const PROBE_INTERVAL_SECONDS = 60;
/** Requests per second of each background route during the mixed phase. */
const RATES = { trial: 100, batch: 5, forensics: 50, decoys: 1, alternatives: 50 } as const;

const svc = await startBenchService(
  [
    unpaid(preflightBatchRoute, "/bench/batch"),
    unpaid(forensicsRoute, "/bench/forensics"),
    unpaid(decoysRoute, "/bench/decoys"),
    unpaid(alternativesRoute, "/bench/alternatives"),
  ],
  { clock: systemClock },
);
const fleet = await spawnFleet(FLEET_HOSTS);
await seedFleet(svc.db, fleet.port, FLEET_HOSTS, FLEET_PER_HOST, "fleet-svc-");
// Steady state, not first sight: each fleet endpoint is due once somewhere in the next interval.
await sql`update listings set next_probe_at = now() + random() * make_interval(secs => ${PROBE_INTERVAL_SECONDS}) where service_id like 'fleet-svc-%'`.execute(
  svc.db.db,
);
const base = svc.server.url;
const credit = await benchCredit(svc.ctx);
const preflight = (seconds: number) =>
  load({ url: `${base}/api/v1/preflight`, body: () => JSON.stringify({ url: randomListing() }), headers: { "x-credit-id": credit }, seconds, connections: 16 });

const alone = await preflight(ALONE_SECONDS);

const prober = await startBenchProber();
const probesBefore = await countProbes();
const [underLoad, trial, batch, forensics, decoys, alternatives] = await Promise.all([
  preflight(SECONDS),
  load({
    url: `${base}/api/v1/preflight-trial`,
    body: () => JSON.stringify({ url: randomListing() }),
    perRequestHeaders: () => ({ "x-forwarded-for": randomIp() }),
    seconds: SECONDS,
    connections: 4,
    rate: RATES.trial,
  }),
  load({
    url: `${base}/bench/batch`,
    body: () => JSON.stringify({ urls: Array.from({ length: 50 }, () => randomListing()) }),
    seconds: SECONDS,
    connections: 1,
    rate: RATES.batch,
  }),
  load({ url: `${base}/bench/forensics`, body: () => JSON.stringify({ url: randomListing() }), seconds: SECONDS, connections: 2, rate: RATES.forensics }),
  load({ url: `${base}/bench/decoys`, body: () => "{}", seconds: SECONDS, connections: 1, rate: RATES.decoys }),
  load({
    url: `${base}/bench/alternatives`,
    body: () => JSON.stringify({ url: randomListing(), limit: 5 }),
    seconds: SECONDS,
    connections: 2,
    rate: RATES.alternatives,
  }),
]);
const probed = (await countProbes()) - probesBefore;
await prober.stop();
fleet.stop();
const dialect = svc.db.dialect;
await svc.close();

const phases = [
  ["credit-paid preflight, alone", alone],
  ["credit-paid preflight, under load", underLoad],
  [`preflight-trial @${RATES.trial}/s`, trial],
  [`batch of 50 @${RATES.batch}/s`, batch],
  [`forensics @${RATES.forensics}/s`, forensics],
  [`catalog/decoys @${RATES.decoys}/s`, decoys],
  [`alternatives @${RATES.alternatives}/s`, alternatives],
] as const;
console.log(
  `database: ${dialect}; ${SECONDS} s mixed phase; prober (${prober.shape}): ${probed} probes of the ${FLEET_HOSTS * FLEET_PER_HOST}-endpoint fleet during it (${(probed / SECONDS).toFixed(0)}/s)`,
);
for (const [name, r] of phases) console.log(summary(name, r));
const errors = phases.slice(1).reduce((n, [, r]) => n + r.errors + r.non2xx, 0);
const ratio = underLoad.requests.average / alone.requests.average;
console.log(`targets: errors ${errors} (0), preflight ratio under load ${ratio.toFixed(2)} (>= 0.7)`);
console.log(
  `preflight under load = ${underLoad.requests.average.toFixed(0)} req/s; alone = ${alone.requests.average.toFixed(0)} req/s; ratio = ${ratio.toFixed(2)}`,
);

async function countProbes(): Promise<number> {
  const row = await svc.ctx.db.db
    .selectFrom("probes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The prober role at PROBE_INTERVAL_SECONDS: a process of its own on PostgreSQL, in-process on PGlite. */
async function startBenchProber(): Promise<{ shape: string; stop(): Promise<void> }> {
  if (svc.db.url) {
    const dataDir = mkdtempSync(join(tmpdir(), "lookout-bench-prober-"));
    const child = spawn(
      process.execPath,
      ["--conditions=@x402-lookout/source", "--import", "tsx", fileURLToPath(new URL("../../src/main.ts", import.meta.url))],
      {
        env: {
          ...process.env,
          ROLE: "prober",
          DATABASE_URL: svc.db.url,
          CATALOG_URLS: "http://127.0.0.1:9/unused", // not demo mode; the prober role does not poll catalogs
          PROBE_INTERVAL_SECONDS: String(PROBE_INTERVAL_SECONDS),
          ALLOW_PRIVATE_TARGETS: "true",
          DATA_DIR: dataDir,
          LOG_LEVEL: "warn",
        },
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    const exited = new Promise((resolve) => child.once("exit", resolve));
    return {
      shape: "own process",
      async stop() {
        child.kill("SIGTERM");
        await exited;
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const prober = startProber(svc.ctx, { intervalSeconds: PROBE_INTERVAL_SECONDS, allowPrivate: true });
  const verdicts = startVerdicts(svc.ctx);
  return { shape: "in the API process", stop: async () => void (await prober.stop(), await verdicts.stop()) };
}
