/**
 * bench:catalog — the three catalog products over 100,000 listings: decoys (target <= 300 ms per
 * call), alternatives (p99 <= 20 ms) and whats-new (p99 <= 50 ms), each through HTTP without the
 * gate (bench:payments measures the gate), against the bare Hono route of the same process.
 * Prints the figure last.
 */
import { alternativesRoute } from "../../src/http/routes/catalog/alternatives.js";
import { decoysRoute } from "../../src/http/routes/catalog/decoys.js";
import { whatsNewRoute } from "../../src/http/routes/catalog/whats-new.js";
import { LISTINGS, randomListing, startBenchService, unpaid } from "../lib/bench-service.js";
import { load, summary } from "../lib/load.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const svc = await startBenchService([
  unpaid(decoysRoute, "/bench/decoys"),
  unpaid(alternativesRoute, "/bench/alternatives"),
  unpaid(whatsNewRoute, "/bench/whats-new"),
]);
const base = svc.server.url;
// Every tenth listing was first seen in the last day, so whats-new has real work to do.
await svc.ctx.db.db
  .updateTable("listings")
  .set({ first_seen_at: new Date(svc.ctx.clock.now().getTime() - 3_600_000) })
  .where((eb) => eb("id", "<=", Math.floor(LISTINGS / 10)))
  .execute();

const bare = await load({ url: `${base}/bench/bare`, method: "GET", seconds: SECONDS, connections: 8 });
const decoys = await load({ url: `${base}/bench/decoys`, body: () => "{}", seconds: SECONDS, connections: 1 });
const alternatives = await load({
  url: `${base}/bench/alternatives`,
  body: () => JSON.stringify({ url: randomListing(), limit: 5 }),
  seconds: SECONDS,
  connections: 4,
});
const whatsNew = await load({ url: `${base}/bench/whats-new`, body: () => JSON.stringify({ limit: 200 }), seconds: SECONDS, connections: 4 });
// Cold: the first call after a verdict recompute rebuilds what the API keeps per generation.
await svc.ctx.db.generation.bump(svc.ctx.db.db, svc.ctx.clock.now());
const cold = async (path: string, body: string) => {
  const t = performance.now();
  await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body });
  return Math.round(performance.now() - t);
};
const coldDecoys = await cold("/bench/decoys", "{}");
const coldAlternatives = await cold("/bench/alternatives", JSON.stringify({ url: randomListing(), limit: 5 }));
const coldWhatsNew = await cold("/bench/whats-new", JSON.stringify({ limit: 200 }));
const dialect = svc.db.dialect;
await svc.close();

console.log(`database: ${dialect}; ${LISTINGS} listings; ${SECONDS}s per phase`);
for (const [name, r] of [
  ["bare Hono JSON", bare],
  ["catalog/decoys", decoys],
  ["alternatives", alternatives],
  ["whats-new", whatsNew],
] as const)
  console.log(summary(name, r));
console.log(
  `first call after a recompute (rebuild per generation, once per API process): decoys ${coldDecoys} ms, alternatives ${coldAlternatives} ms, whats-new ${coldWhatsNew} ms (each answers from its previous value after 1 s)`,
);
console.log(
  `targets: decoys p99 ${decoys.latency.p99} ms (<= 300), alternatives p99 ${alternatives.latency.p99} ms (<= 20), whats-new p99 ${whatsNew.latency.p99} ms (<= 50)`,
);
console.log(
  `alternatives = ${alternatives.requests.average.toFixed(0)} req/s; ratio to bare Hono = ${(alternatives.requests.average / bare.requests.average).toFixed(3)}`,
);
