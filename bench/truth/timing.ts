import { firstProbe, quantile, thirdFailure, type ListingHistory } from "./history.js";
import type { Answer } from "./tracker.js";
import { downAt, type Truth } from "./truth.js";

export type EventType = "dead" | "recovered" | "confidence";

/** One change the service had to notice: from when (`origin`) and when preflight first said so. */
export interface Detection {
  url: string;
  source: Truth["source"];
  type: EventType;
  /** When the state to notice began: the change, or first sight. */
  since: number;
  /** The first probe that saw the new state (dead, recovered), or first sight (confidence); null: never probed in the run. */
  origin: number | null;
  detectedAt: number | null;
  /** dead only: the first answer that was no longer `pay`, and the third failed probe in a row. */
  leftPayAt?: number | null;
  thirdFailedAt?: number | null;
}

const HOLDS: Record<EventType, (a: Answer) => boolean> = {
  dead: (a) => a.warnings.includes("dead"),
  recovered: (a) => a.ok && !a.warnings.includes("dead"),
  confidence: (a) => a.confidence >= 0.4,
};
export const settledBy = (type: EventType) => HOLDS[type];

/**
 * Every change of the run, with the origin read from the service's probes and the detection from
 * the answers preflight gave (the first answer after the origin that says it). A bench change
 * counts from its flip; a listing listed in the run from first sight (confidence, and dead if it
 * was down), and again at each later change (the flapping demo endpoint).
 */
export function detections(truths: Iterable<Truth>, history: ReadonlyMap<string, ListingHistory>, answers: readonly Answer[]): Detection[] {
  const byUrl = new Map<string, Answer[]>();
  for (const a of answers) byUrl.set(a.url, [...(byUrl.get(a.url) ?? []), a]);
  const out: Detection[] = [];
  for (const t of truths) {
    const h = history.get(t.url);
    if (!h) continue;
    const got = (byUrl.get(t.url) ?? []).sort((a, b) => a.gotAt - b.gotAt);
    const first = (origin: number | null, holds: (a: Answer) => boolean) =>
      origin === null ? null : (got.find((a) => a.gotAt > origin && holds(a))?.gotAt ?? null);
    const listedInRun = t.source === "demo" || t.source === "new";
    // The states to notice: for a listing listed in the run, its state at first sight and each later change.
    const states = listedInRun
      ? [{ at: h.firstSeen, down: downAt(t, h.firstSeen), first: true }, ...t.timeline.filter((s) => s.at > h.firstSeen).map((s) => ({ ...s, first: false }))]
      : t.timeline.slice(1).map((s) => ({ ...s, first: false }));
    if (listedInRun)
      out.push({ url: t.url, source: t.source, type: "confidence", since: h.firstSeen, origin: h.firstSeen, detectedAt: first(h.firstSeen, HOLDS.confidence) });
    for (const s of states) {
      if (!s.down && s.first) continue;
      const type: EventType = s.down ? "dead" : "recovered";
      const origin = firstProbe(h, s.at, !s.down)?.at ?? null;
      const d: Detection = { url: t.url, source: t.source, type, since: s.at, origin, detectedAt: first(origin, HOLDS[type]) };
      if (s.down) {
        d.leftPayAt = first(origin, (a) => a.action !== "pay");
        d.thirdFailedAt = origin === null ? null : (thirdFailure(h, origin) ?? null);
      }
      out.push(d);
    }
  }
  return out;
}

/**
 * The settled endpoints that started failing: the median time to dead, and what the same rule
 * (three failed probes in a row) needs at one probe per interval: the third failure two intervals
 * after the first, plus the verdict lag this run measured after each one's actual third failure.
 */
export function slotBaseline(ds: readonly Detection[], intervalMs: number) {
  const changed = ds.filter(
    (d) => d.type === "dead" && (d.source === "settled" || d.source === "refusable") && d.origin !== null && d.detectedAt && d.thirdFailedAt,
  );
  if (changed.length === 0) return null;
  const median = (xs: number[]) =>
    quantile(
      xs.sort((a, b) => a - b),
      0.5,
    );
  return {
    n: changed.length,
    measured: median(changed.map((d) => d.detectedAt! - d.origin!)),
    baseline: median(changed.map((d) => 2 * intervalMs + (d.detectedAt! - d.thirdFailedAt!))),
  };
}
