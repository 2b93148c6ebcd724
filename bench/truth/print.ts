import type { DbHandle } from "../../src/db/client.js";
import type { Change } from "./changes.js";
import type { BenchEndpoint, BenchFleet } from "./fleet.js";
import { readHistory } from "./history.js";
import { isDown } from "./hosts.js";
import { extraLoad, politeness } from "./load.js";
import { agreementLines, TARGET_MS, timeLine } from "./report.js";
import { actionsOfKinds, diesEarlyLine, SHAPE_KINDS } from "./shapes-report.js";
import type { Agreement, VerdictSample } from "./samples.js";
import { scoreCodes, scoreTable } from "./score.js";
import type { TruthService } from "./service.js";
import { detections, slotBaseline } from "./timing.js";
import { POLL_MS, type Answer } from "./tracker.js";
import { benchTruth, demoTruth, NOT_SCORED, type Truth } from "./truth.js";

export interface RunRecord {
  db: DbHandle;
  svc: TruthService;
  fleet: BenchFleet;
  start: number;
  end: number;
  intervalMs: number;
  changes: Change[];
  added: BenchEndpoint[];
  answers: Answer[];
  trackerErrors: number;
  verdicts: VerdictSample[];
  agreements: Agreement[];
  inFlux: number;
  failed: number;
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function metricTotal(svc: TruthService, name: string): Promise<number> {
  const m = svc.ctx.metrics.getSingleMetric(name);
  return m ? (await m.get()).values.reduce((n, v) => n + v.value, 0) : 0;
}

/** Everything the run recorded, read against the labels and the service's own probes table. */
export async function printReport(r: RunRecord): Promise<void> {
  const history = await readHistory(r.db);
  const truths = new Map<string, Truth>();
  for (const e of r.fleet.endpoints) truths.set(e.url, benchTruth(e));
  for (const d of r.svc.demo.endpoints) truths.set(d.url, demoTruth(d, r.start, r.end, history.get(d.url)?.probes[0]?.at));
  const settled = r.fleet.endpoints.filter((e) => e.group !== "new").length;
  const cycles = (r.end - r.start) / r.intervalMs;
  const to = (f: (c: Change) => boolean) => r.changes.filter(f).length;
  console.log(
    `changes: ${r.changes.length} (${((100 * r.changes.length) / settled / cycles).toFixed(2)}% of the ${settled} settled endpoints per probe interval): ` +
      `${to((c) => c.to === "500")} healthy -> 500, ${to((c) => c.to === "refused")} healthy -> refused, ${to((c) => !isDown(c.to))} 500 -> healthy; ` +
      `new listings: ${r.added.length} (${r.added.filter((e) => isDown(e.timeline[0]!.state)).length} always 500, ${r.added.filter((e) => e.timeline[0]!.state === "v1").length} v1 challenges)`,
  );

  const { scores, moments } = scoreCodes(r.verdicts, truths, history);
  console.log(
    `per-code precision and recall of the stored verdict (${r.verdicts.length} samples, one a minute and one at the end; ${moments} listing-moments):`,
  );
  for (const line of scoreTable(scores)) console.log(line);
  console.log(
    `  not scored: ${Object.entries(NOT_SCORED)
      .map(([c, why]) => `${c} (${why})`)
      .join("; ")}`,
  );

  console.log("action agreement (preflight, forensics, and the stored verdict the blacklist and alternatives read; same URL, same moment):");
  for (const line of agreementLines(r.agreements, r.inFlux, r.failed, truths)) console.log(line);
  for (const line of actionsOfKinds(r.agreements, truths, history, SHAPE_KINDS)) console.log(line);

  const ds = detections(truths.values(), history, r.answers);
  console.log(
    `time to detect (credit-paid preflight over HTTP, each URL asked every ${POLL_MS / 1000} s; ${r.answers.length} answers, ${r.trackerErrors} failed):`,
  );
  const dead = timeLine("failing -> dead (ok false), from the first failed probe", ds, "dead", r.start, r.end);
  const leftPay = timeLine("failing -> no longer pay, from the first failed probe", ds, "dead", r.start, r.end, (d) => d.leftPayAt);
  const recovered = timeLine("dead -> recovered (ok true, no dead), from the first healthy probe", ds, "recovered", r.start, r.end);
  const confidence = timeLine("new listing -> confidence 0.4, from first sight", ds, "confidence", r.start, r.end);
  for (const t of [dead, leftPay, recovered, confidence]) console.log(t.line);
  for (const kind of ["dead_5xx", "dead_refused"]) {
    const url = r.svc.demo.endpoints.find((d) => d.kind === kind)!.url;
    const at = ds.find((d) => d.url === url && d.type === "dead")?.detectedAt;
    console.log(`  demo ${kind}: dead ${at ? `${s(at - r.start)} after the service started` : "not within the run"}`);
  }
  console.log(`  ${diesEarlyLine(r.svc.demo.endpoints, ds, r.start)}`);

  const load = extraLoad(truths.values(), history, r.start, r.end, r.intervalMs);
  const extra = load.slot === 0 ? NaN : load.confirm / load.slot;
  console.log(
    `extra probe load: ${load.confirm} confirmation probes / ${load.slot} slot probes of the settled endpoints = ${(100 * extra).toFixed(2)}% ` +
      `(${load.onChanged} of them on endpoints that changed); lookout_probe_confirmations_total ${await metricTotal(r.svc, "lookout_probe_confirmations_total")} ` +
      `of lookout_probes_total ${await metricTotal(r.svc, "lookout_probes_total")} (every listing, first sight included)`,
  );
  const polite = politeness(await r.fleet.logs(), r.start);
  console.log(`per-host limits as the hosts saw them: ${polite.line}`);

  const errs = r.svc.errors;
  console.log(`service errors logged during the run: ${errs.count}${errs.count ? ` (${errs.first.join("; ")})` : ""}`);

  const verdict = (ok: boolean, measured: readonly number[]) => (measured.length === 0 ? "n/a" : ok ? "met" : "MISSED");
  console.log(
    `targets (each within ${TARGET_MS / 1000} s): dead ${verdict(dead.pass, dead.measured)}, recovered ${verdict(recovered.pass, recovered.measured)}, ` +
      `confidence 0.4 ${verdict(confidence.pass, confidence.measured)}; extra load < 10% ${extra < 0.1 ? "met" : "MISSED"}; per-host limits ${polite.ok ? "met" : "MISSED"}`,
  );

  const b = slotBaseline(ds, r.intervalMs);
  if (!b) console.log("no settled endpoint started failing within the run: no time-to-dead ratio (run longer than 230 s)");
  else {
    console.log(
      `median time to dead of the ${b.n} endpoints that started failing = ${s(b.measured)}; slot-cadence baseline (third failed probe two intervals ` +
        `after the first, plus the verdict lag measured after their third) = ${s(b.baseline)}; ratio = ${(b.measured / b.baseline).toFixed(3)}`,
    );
  }
}
