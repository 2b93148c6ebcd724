/**
 * bench:offline — the client's offline guard over 100,000 listings: a generated snapshot signed
 * with a real Ed25519 key and verified as the client verifies it, then 300,000 synchronous
 * decisions over random URLs (a third catalogued with the quote they were judged on, a third with
 * another quote, a third not catalogued): p50/p99/max in µs (target p99 <= 1 ms), and the heap the
 * store keeps per listing. Baseline: a credit-paid preflight through the typed client of the real
 * service over loopback (bench/offline/baseline.ts). Prints local p99 / preflight p99 last.
 */
import { createOfflineGuard, type OfflineLookout } from "@x402-lookout/client";
import { createLookoutKeys } from "@x402-lookout/client/internal/jwks";
import type { VerdictSnapshot } from "@x402-lookout/contracts/snapshot/schemas";
import { SNAPSHOT_BASE, snapshotSigner } from "../../test/helpers/signed-snapshots.js";
import { preflightBaseline } from "./baseline.js";
import { listing, queries, type QueryKind } from "./listings.js";
import { fmt, percentiles } from "./percentiles.js";

const LISTINGS = 100_000;
const DECISIONS = Number(process.env.BENCH_DECISIONS ?? 300_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc (npm run bench:offline)");
const heap = () => (gc(), gc(), process.memoryUsage().heapUsed);

const signer = await snapshotSigner();
const heapBefore = heap();
let pending: VerdictSnapshot | null = await signer.snapshot(
  1,
  Array.from({ length: LISTINGS }, (_, i) => listing(i)),
  Date.now(),
);
const lookout = {
  baseUrl: SNAPSHOT_BASE,
  keys: createLookoutKeys(SNAPSHOT_BASE, signer.fetch),
  verdictSnapshot: async () => [pending!, (pending = null)][0]!,
} as unknown as OfflineLookout;
let t = performance.now();
const guard = createOfflineGuard({ lookout, refreshMs: 3_600_000, onError: (e) => console.error(e) });
if (!(await guard.ready) || guard.size !== LISTINGS) throw new Error(`the snapshot was not applied (${guard.size} listings)`);
const applyMs = performance.now() - t;
guard.stop();
const perListing = (heap() - heapBefore) / LISTINGS;
console.log(
  `snapshot of ${LISTINGS} listings verified (EdDSA and sha256 digest) and applied in ${applyMs.toFixed(0)} ms; heap kept ${perListing.toFixed(0)} bytes per listing`,
);

const qs = queries(DECISIONS, LISTINGS);
for (let i = 0; i < 20_000; i++) guard.decide(qs[i]!.url, qs[i]!.method, qs[i]!.requirement);
const us = new Float64Array(DECISIONS);
const seen: Record<QueryKind, { local: number; asked: number }> = {
  hit: { local: 0, asked: 0 },
  mismatch: { local: 0, asked: 0 },
  miss: { local: 0, asked: 0 },
};
t = performance.now();
for (let i = 0; i < DECISIONS; i++) {
  const q = qs[i]!;
  const t0 = performance.now();
  const d = guard.decide(q.url, q.method, q.requirement);
  us[i] = (performance.now() - t0) * 1000;
  seen[q.kind][d === null ? "asked" : "local"]++;
}
const wallUs = ((performance.now() - t) * 1000) / DECISIONS;
if (seen.hit.asked || seen.mismatch.local || seen.miss.local) throw new Error(`wrong decisions: ${JSON.stringify(seen)}`);
const local = percentiles(us);
console.log(
  `${DECISIONS} local decisions (${seen.hit.local} decided, ${seen.mismatch.asked + seen.miss.asked} sent to preflight): ${fmt(local)}; ${wallUs.toFixed(2)} µs each over the loop`,
);

const baseline = await preflightBaseline(Number(process.env.BENCH_PREFLIGHT_CALLS ?? 2_000));
console.log(`baseline: credit-paid preflight through the typed client, real service on loopback (${baseline.listings} listings): ${fmt(baseline.latencyUs)}`);
console.log(`target p99 <= 1000 µs: ${local.p99 <= 1000 ? "met" : "missed"}`);
console.log(`ratio local decision p99 / preflight p99: ${(local.p99 / baseline.latencyUs.p99).toFixed(5)}`);
