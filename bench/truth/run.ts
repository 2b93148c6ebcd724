/**
 * npm run bench:truth — time to truth and calibration of the real service (issue 23): every role
 * of the service in this process (prober, ingester, verdict tasks, alerter, HTTP API with the
 * payment gate) at the default PROBE_INTERVAL_SECONDS=600, against the demo fleet (every kind,
 * labelled in src/demo/expectations.ts) and a bench fleet of its own on loopback: 4,000 settled
 * endpoints on 8 hosts plus 24 single-endpoint hosts, 1% of them changing state per probe interval
 * (healthy to 500, healthy to refused, 500 to healthy) just before their slot, and new listings
 * (v1 and v2 challenges, some always 500) listed mid-run. Prints per-code precision and recall,
 * action agreement, time-to-detect distributions, the extra probe load and the per-host limits as
 * the hosts saw them; last the median time to dead against the slot-cadence baseline.
 * PGlite by default, PostgreSQL with BENCH_DATABASE_URL; BENCH_SECONDS (default 420) sets the run.
 */
import { openBenchDb } from "../lib/bench-db.js";
import { benchCredit } from "../lib/bench-service.js";
import { planChanges, scheduleChanges, type Change } from "./changes.js";
import { startBenchFleet, type BenchEndpoint } from "./fleet.js";
import { isDown } from "./hosts.js";
import { observe } from "./observe.js";
import { printReport } from "./print.js";
import { settleFleet } from "./settle.js";
import { CATALOG_POLL_SECONDS, PROBE_INTERVAL_SECONDS, startTruthService } from "./service.js";
import { startTracker, type Answer } from "./tracker.js";
import { settledBy } from "./timing.js";
import { DOWN_KINDS } from "./truth.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 420);
const INTERVAL_MS = PROBE_INTERVAL_SECONDS * 1000;
const FLEET = { hosts: 8, perHost: 500, refusable: 24 };
/** New listings: a batch on a new host at the start, and one on a known host later when the run is long enough. */
const NEW_ON_NEW_HOST = 40;
const NEW_ON_KNOWN_HOST = 20;

const db = await openBenchDb(process.env.BENCH_DATABASE_URL || undefined);
const svc = await startTruthService(db);
const fleet = await startBenchFleet({ ...FLEET, network: svc.rail.network, asset: svc.rail.asset.address });
try {
  const setup = performance.now();
  const ids = await settleFleet(svc.ctx, fleet, CATALOG_POLL_SECONDS);
  console.log(
    `database: ${db.label}; bench fleet: ${fleet.endpoints.length} settled endpoints with an hour of history (set up in ${((performance.now() - setup) / 1000).toFixed(1)} s), ` +
      `demo fleet: ${svc.demo.endpoints.length} endpoints; PROBE_INTERVAL_SECONDS=${PROBE_INTERVAL_SECONDS}, CATALOG_POLL_SECONDS=${CATALOG_POLL_SECONDS}; run ${SECONDS} s`,
  );
  const credit = await benchCredit(svc.ctx);
  const start = Date.now();
  const end = start + SECONDS * 1000;
  const tracker = startTracker(db, svc.url, credit);
  svc.startRoles([svc.demo.catalogUrl, fleet.catalogUrl]);

  const both = (a: Answer, down: boolean) => settledBy("confidence")(a) && (!down || settledBy("dead")(a));
  for (const d of svc.demo.endpoints) {
    const down = DOWN_KINDS.has(d.kind);
    // The flapping endpoint may change phase during the run: asked until the end.
    tracker.watch(d.url, d.kind === "flapping" ? () => false : (a) => both(a, down));
  }
  const changes = planChanges(fleet, ids, start, SECONDS, INTERVAL_MS);
  const made: Change[] = [];
  const stopChanges = scheduleChanges(fleet, changes, (c) => {
    made.push(c);
    tracker.watch(c.e.url, settledBy(isDown(c.to) ? "dead" : "recovered"));
  });
  const added: BenchEndpoint[] = [];
  const addNew = async (count: number, label: string, on?: (typeof fleet.hosts)[number]) => {
    for (const e of await fleet.addNew(count, label, on)) {
      added.push(e);
      tracker.watch(e.url, (a) => both(a, isDown(e.timeline[0]!.state)));
    }
  };
  const later = SECONDS >= 420 ? setTimeout(() => void addNew(NEW_ON_KNOWN_HOST, "B", fleet.hosts[0]), (SECONDS - 300) * 1000) : undefined;
  await addNew(NEW_ON_NEW_HOST, "A");

  const urls = () => [...svc.demo.endpoints.map((d) => d.url), ...made.map((c) => c.e.url), ...added.map((e) => e.url)];
  const observed = await observe(db, svc.url, credit, end, urls, fleet.endpoints);
  stopChanges();
  clearTimeout(later);
  await tracker.stop();
  await svc.stopRoles();
  await printReport({
    db,
    svc,
    fleet,
    start,
    end,
    intervalMs: INTERVAL_MS,
    changes: made,
    added,
    answers: tracker.answers,
    trackerErrors: tracker.errors,
    ...observed,
  });
} finally {
  await svc.close();
  await fleet.stop();
  await db.close();
}
