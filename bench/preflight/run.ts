/**
 * bench:preflight — 100,000 catalogued endpoints with 7 days of history. Measures preflight-trial
 * and credit-paid preflight throughput against a bare Hono JSON route served by the same process
 * (target ratio >= 0.5), p99 of credit-paid preflight at 1,000 requests/s evenly spaced (target
 * <= 5 ms; bench/lib/paced-load.ts; the bare route's p99 at the same rate is printed beside it as
 * the floor of this setup), batch-of-50 p50
 * (<= 15 ms) and forensics p99 (<= 25 ms); and what the verdict signature costs: credit-paid
 * preflight signed and unsigned (bench/preflight/unsigned.ts) in alternating parts of the same
 * run (target: signing costs <= 10% of the unsigned throughput). Prints that ratio last.
 *
 * A short warm-up of trial and credit-paid calls comes first, then ANALYZE of the tables they
 * write, as autovacuum does within a minute of a deployment's first writes: the seeded copy starts
 * with those tables empty, and a prepared statement's plan built on an empty table's statistics
 * scans it whole on every call until then (docs/benchmarks.md, session 6).
 */
import { sql } from "kysely";
import { preflightBatchRoute } from "../../src/http/routes/preflight/preflight-batch.js";
import { forensicsRoute } from "../../src/http/routes/preflight/forensics.js";
import { benchCredit, listingUrl, LISTINGS, randomIp, randomListing, startBenchService, unpaid } from "../lib/bench-service.js";
import { load, summary } from "../lib/load.js";
import { pacedLoad, pacedSummary } from "../lib/paced-load.js";
import { UNSIGNED_PATH, unsignedPreflight } from "./unsigned.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const RATE = 1_000;
const unsigned = unsignedPreflight();
const svc = await startBenchService([unpaid(preflightBatchRoute, "/bench/batch"), unpaid(forensicsRoute, "/bench/forensics"), unsigned.route]);
await unsigned.attach(svc.ctx);
const base = svc.server.url;
const credit = await benchCredit(svc.ctx);
const urlBody = () => JSON.stringify({ url: randomListing() });

await load({ url: `${base}/api/v1/preflight-trial`, body: urlBody, perRequestHeaders: () => ({ "x-forwarded-for": randomIp() }), seconds: 2, connections: 16 });
await load({ url: `${base}/api/v1/preflight`, body: urlBody, headers: { "x-credit-id": credit }, seconds: 2, connections: 16 });
await load({ url: `${base}${UNSIGNED_PATH}`, body: urlBody, headers: { "x-credit-id": credit }, seconds: 1, connections: 16 });
await sql`analyze trial_cache, trial_counters, credits`.execute(svc.ctx.db.db);

const bare = await load({ url: `${base}/bench/bare`, method: "GET", seconds: SECONDS, connections: 16 });
// 1,000 hosts at 50 trial calls a day allow 50,000 answers, and a call refused at its host's
// limit answers 429 without a report: the trial phase runs in parts of at most 2 s, each starting
// with no calls counted (the warm-up's and the part before's are deleted), so no host nears its
// limit at up to ~12,000 calls/s, and only 2xx answers count below.
const trialParts = Math.ceil(SECONDS / 2);
let trialAnswers = 0;
let trialSeconds = 0;
const trialLines: string[] = [];
for (let part = 0; part < trialParts; part++) {
  await sql`delete from trial_counters`.execute(svc.ctx.db.db);
  const r = await load({
    url: `${base}/api/v1/preflight-trial`,
    body: urlBody,
    perRequestHeaders: () => ({ "x-forwarded-for": randomIp() }),
    seconds: SECONDS / trialParts,
    connections: 16,
  });
  trialAnswers += r["2xx"];
  trialSeconds += r.duration;
  trialLines.push(summary(`preflight-trial, part ${part + 1} of ${trialParts}`, r));
}
const credited = await load({ url: `${base}/api/v1/preflight`, body: urlBody, headers: { "x-credit-id": credit }, seconds: SECONDS, connections: 16 });
// Signed and unsigned in alternating parts, so a drift of the machine during the run falls on both alike.
// Beside the rates, the process's CPU time and its event loop's busy time per answer: figures
// that hold when other work shares the machine (the load generator's share is in both alike).
const signing = { signed: { answers: 0, seconds: 0, cpuUs: 0, loopMs: 0 }, unsigned: { answers: 0, seconds: 0, cpuUs: 0, loopMs: 0 } };
for (let part = 0; part < 4; part++) {
  const which = part % 2 === 0 ? "unsigned" : "signed";
  const path = which === "signed" ? "/api/v1/preflight" : UNSIGNED_PATH;
  const [cpu0, loop0] = [process.cpuUsage(), performance.eventLoopUtilization()];
  const r = await load({ url: `${base}${path}`, body: urlBody, headers: { "x-credit-id": credit }, seconds: SECONDS / 2, connections: 16 });
  const cpu = process.cpuUsage(cpu0);
  signing[which].cpuUs += cpu.user + cpu.system;
  signing[which].loopMs += performance.eventLoopUtilization(loop0).active;
  signing[which].answers += r["2xx"];
  signing[which].seconds += r.duration;
}
// 1,000 requests/s evenly spaced; the bare route at the same rate is the floor of this setup's tail (the load generator shares the process).
const bareFixed = await pacedLoad({ url: `${base}/bench/bare`, method: "GET", rate: RATE, seconds: SECONDS, connections: 16 });
const fixed = await pacedLoad({
  url: `${base}/api/v1/preflight`,
  body: urlBody,
  headers: { "x-credit-id": credit },
  rate: RATE,
  seconds: SECONDS,
  connections: 16,
});
const batch = await load({
  url: `${base}/bench/batch`,
  body: () => JSON.stringify({ urls: Array.from({ length: 50 }, () => randomListing()) }),
  seconds: SECONDS,
  connections: 1,
});
const forensics = await load({
  url: `${base}/bench/forensics`,
  body: () => JSON.stringify({ url: listingUrl(Math.floor(Math.random() * LISTINGS)) }),
  seconds: SECONDS,
  connections: 4,
});
const dialect = svc.db.dialect;
await svc.close();

console.log(`database: ${dialect}; ${LISTINGS} listings; ${SECONDS}s per phase`);
console.log([summary("bare Hono JSON", bare), ...trialLines, summary("credit-paid preflight", credited)].join("\n"));
console.log(pacedSummary("bare, paced", bareFixed, RATE));
console.log(pacedSummary("credit-paid preflight, paced", fixed, RATE));
for (const [name, r] of [
  ["batch of 50", batch],
  ["forensics", forensics],
] as const)
  console.log(summary(name, r));
const trialRate = trialAnswers / trialSeconds;
const trialRatio = trialRate / bare.requests.average;
const creditRatio = credited.requests.average / bare.requests.average;
console.log(
  `targets: trial ratio ${trialRatio.toFixed(2)} (>= 0.5), credit ratio ${creditRatio.toFixed(2)} (>= 0.5), p99 @1000/s ${fixed.latency.p99} ms (<= 5; bare route ${bareFixed.latency.p99} ms), batch p50 ${batch.latency.p50} ms (<= 15), forensics p99 ${forensics.latency.p99} ms (<= 25)`,
);
console.log(
  `preflight-trial = ${trialRate.toFixed(0)} answers/s; credit-paid preflight = ${credited.requests.average.toFixed(0)} req/s; ratio to bare Hono = ${trialRatio.toFixed(2)} / ${creditRatio.toFixed(2)}`,
);
const perAnswer = (p: typeof signing.signed) => `${(p.cpuUs / p.answers).toFixed(0)} µs CPU, ${((p.loopMs * 1000) / p.answers).toFixed(0)} µs event loop`;
console.log(`per credit-paid answer: signed ${perAnswer(signing.signed)}; unsigned ${perAnswer(signing.unsigned)}`);
const signedRate = signing.signed.answers / signing.signed.seconds;
const unsignedRate = signing.unsigned.answers / signing.unsigned.seconds;
console.log(
  `verdict signing: credit-paid preflight signed ${signedRate.toFixed(0)} answers/s, unsigned ${unsignedRate.toFixed(0)} answers/s; signing costs ${((1 - signedRate / unsignedRate) * 100).toFixed(1)}% of credit-paid throughput (target <= 10%); signed/unsigned = ${(signedRate / unsignedRate).toFixed(3)}`,
);
