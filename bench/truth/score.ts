import { firstProbe, type ListingHistory } from "./history.js";
import type { VerdictSample } from "./samples.js";
import { changedAt, downAt, SCORED, unscoredAt, type Truth } from "./truth.js";

/** A listing is judged this long after first sight, and its dead/zombie label this long after the first probe that saw its state. */
export const SETTLE_MS = 180_000;
const STATE_CODES = new Set(["dead", "zombie"]);

export interface CodeScore {
  code: string;
  labelled: number;
  tp: number;
  fp: number;
  fn: number;
  /** Kinds of the listings behind the false positives and negatives, with counts. */
  wrong: Map<string, number>;
}

/**
 * Precision and recall of each scored code over listing-moments: every sampled stored verdict of
 * a listing whose label is settled. A listing listed during the run is judged from SETTLE_MS after
 * first sight; a dead or zombie label from SETTLE_MS after the first probe that could see its
 * current state (the issue's 3-minute target), so a change still being confirmed is not scored.
 */
export function scoreCodes(samples: readonly VerdictSample[], truths: ReadonlyMap<string, Truth>, history: ReadonlyMap<string, ListingHistory>) {
  const scores = new Map<string, CodeScore>(SCORED.map((code) => [code, { code, labelled: 0, tp: 0, fp: 0, fn: 0, wrong: new Map<string, number>() }]));
  let moments = 0;
  for (const sample of samples) {
    for (const [url, warnings] of sample.warnings) {
      const truth = truths.get(url);
      const h = history.get(url);
      if (!truth || !h) continue;
      const listedInRun = truth.source === "demo" || truth.source === "new";
      if (listedInRun && sample.at - h.firstSeen < SETTLE_MS) continue;
      let since = changedAt(truth, sample.at);
      if (listedInRun) since = Math.max(since, h.firstSeen);
      const seen = Number.isFinite(since) ? firstProbe(h, since)?.at : Number.NEGATIVE_INFINITY;
      const stateSettled = seen !== undefined && sample.at - seen >= SETTLE_MS;
      const expected = new Set(truth.codes);
      if (downAt(truth, sample.at)) expected.add("dead");
      moments++;
      const unscored = unscoredAt(truth, sample.at);
      for (const s of scores.values()) {
        if ((STATE_CODES.has(s.code) && !stateSettled) || unscored.includes(s.code)) continue;
        const want = expected.has(s.code);
        const got = warnings.includes(s.code);
        if (want) s.labelled++;
        if (want && got) s.tp++;
        else if (want || got) {
          if (got) s.fp++;
          else s.fn++;
          const key = `${got ? "FP" : "FN"} ${truth.kind}`;
          s.wrong.set(key, (s.wrong.get(key) ?? 0) + 1);
        }
      }
    }
  }
  return { scores: [...scores.values()], moments };
}

const pct = (n: number, d: number) => (d === 0 ? "n/a" : `${((100 * n) / d).toFixed(1)}%`);

export function scoreTable(scores: readonly CodeScore[]): string[] {
  const rows = scores.map((s) => [s.code, String(s.labelled), String(s.tp), String(s.fp), String(s.fn), pct(s.tp, s.tp + s.fp), pct(s.tp, s.tp + s.fn)]);
  const head = ["code", "labelled", "TP", "FP", "FN", "precision", "recall"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const table = [head, ...rows].map(
    (r) =>
      "  " +
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
  );
  const wrong = scores.filter((s) => s.wrong.size > 0).map((s) => `    ${s.code}: ${[...s.wrong].map(([k, n]) => `${n} x ${k}`).join(", ")}`);
  return wrong.length ? [...table, "  wrong, by kind of listing:", ...wrong] : table;
}
