/**
 * bench:pages — the explorer's pages over 100,000 catalogued endpoints with 7 days of hourly
 * history (BENCH_LISTINGS; BENCH_DATABASE_URL for PostgreSQL, else PGlite): p50 and p99 of `/`,
 * `/endpoints` (plain, searched, filtered, sorted, its last page), `/endpoints/{id}` and a badge,
 * each at BENCH_RATE requests/s evenly spaced (bench/lib/paced-load.ts), against a bare landing
 * page (the layout around static text) served by the same process in the same run. Target: p99
 * <= 50 ms for every page. Prints the ratio of the slowest page's p99 to the bare page's last.
 */
import { html } from "hono/html";
import { SERVICE_NAME } from "../../src/http/attribution.js";
import { layout } from "../../src/http/pages/layout.js";
import { createOverviewService } from "../../src/services/overview/service.js";
import { LISTINGS, startBenchService } from "../lib/bench-service.js";
import { pacedLoad, pacedSummary, type PacedResult } from "../lib/paced-load.js";
import { PAGE_KINDS } from "./pages.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const TARGET_P99_MS = 50;

const svc = await startBenchService();
svc.app.get("/bench/bare-page", (c) => c.html(layout(SERVICE_NAME, html`<h1>${SERVICE_NAME}</h1><p>Risk signals for x402 payment endpoints.</p>`)));
// The service's clock stands still at the seed's time, so its landing figures would be read once.
// Here they are read again every second of wall time: the background read falls inside the run.
const t0 = Date.now();
const moving = { now: () => new Date(svc.ctx.clock.now().getTime() + Date.now() - t0) };
Object.assign(svc.ctx.services, { overview: createOverviewService({ db: svc.ctx.db, clock: moving, freshMs: 1000 }) });
const base = svc.server.url;

const measured: { name: string; r: PacedResult }[] = [];
const missing: string[] = [];
for (const kind of PAGE_KINDS) {
  const first = kind.next();
  const res = await fetch(`${base}${first.path}`, { headers: first.headers });
  await res.arrayBuffer();
  if (res.status !== 200) {
    missing.push(`${kind.name}: ${first.path} answered ${res.status}`);
    continue;
  }
  await pacedLoad({ url: base, method: "GET", rate: RATE, seconds: 2, connections: 16, next: kind.next }); // warm-up
  measured.push({ name: kind.name, r: await pacedLoad({ url: base, method: "GET", rate: RATE, seconds: SECONDS, connections: 16, next: kind.next }) });
}
await svc.close();

console.log(`\nbench:pages, ${LISTINGS} listings, ${RATE} req/s per page for ${SECONDS} s (target p99 <= ${TARGET_P99_MS} ms)`);
for (const { name, r } of measured)
  console.log(`${pacedSummary(name, r, RATE)}${name.startsWith("bare") || r.latency.p99 <= TARGET_P99_MS ? "" : "  << p99 above target"}`);
for (const line of missing) console.log(`not measured (the page is not served): ${line}`);
const [bare, ...pages] = measured;
const failed = measured.filter(({ r }) => r.non2xx + r.errors > 0).length > 0;
if (!bare || pages.length === 0) throw new Error("nothing to compare: the bare page or every explorer page is missing");
const slowest = pages.reduce((a, b) => (b.r.latency.p99 > a.r.latency.p99 ? b : a));
console.log(
  `slowest page p99 ${slowest.r.latency.p99} ms (${slowest.name}); every page p99 <= ${TARGET_P99_MS} ms: ${slowest.r.latency.p99 <= TARGET_P99_MS ? "yes" : "no"}`,
);
if (failed || missing.length > 0) process.exitCode = 1;
console.log(`ratio slowest page p99 / bare landing page p99: ${(slowest.r.latency.p99 / bare.r.latency.p99).toFixed(2)}`);
