import { DEFAULT_FLAP_PERIOD_MS, DIES_EARLY_AFTER_MS, flapIsDown, type DemoEndpoint } from "../../src/demo/index.js";
import type { BenchEndpoint } from "./fleet.js";
import { isDown } from "./hosts.js";

/** Codes scored for precision and recall: each can be seen within minutes of first sight. */
export const SCORED = [
  "dead",
  "zombie",
  "decoy_price_extreme",
  "suspicious_high_price",
  "slow",
  "new_provider",
  "proxy_markup",
  "wildcard_402",
  "spa_fallback",
  "price_outlier_high",
  "slow_p99",
  "needs_input",
  "flapping",
] as const;

/** Codes left out, and why. */
export const NOT_SCORED: Readonly<Record<string, string>> = {
  failing: "the run between a first failure and dead; the time-to-detect figures measure it",
  no_history: "describes the prober's own progress, not the endpoint",
  high_concentration: "describes the catalog (informational), not labelled",
  dead_7d: "needs 20 probes in 7 days",
  mostly_dead: "needs 20 probes in 7 days",
  never_paid_zombie: "needs a listing 30 days old",
  unknown_endpoint: "every URL asked is catalogued",
};

/** What a listing really is: down or up from each moment on (oldest first), and the codes it should carry whatever its state. */
export interface Truth {
  url: string;
  source: "demo" | "settled" | "refusable" | "new";
  kind: string;
  timeline: Array<{ at: number; down: boolean }>;
  codes: string[];
  /** Codes that may or may not fire by design (a cloaked quote's price codes): neither TP, FP nor FN. */
  unscored?: string[];
}

const HOUR_MS = 3_600_000;

/**
 * Codes neither right nor wrong at `at`: the label's own, and `flapping` on a listing whose state
 * changed within the hour before (a failure run not yet dead, a recovery): whether that hour was
 * "mostly healthy" is counted in probes (decision 0049), which the labels do not know.
 */
export function unscoredAt(t: Truth, at: number): readonly string[] {
  const changed = t.timeline.some((s) => Number.isFinite(s.at) && s.at <= at && s.at > at - HOUR_MS);
  return changed ? [...(t.unscored ?? []), "flapping"] : (t.unscored ?? []);
}

export const downAt = (t: Truth, at: number) => t.timeline.filter((s) => s.at <= at).at(-1)?.down ?? false;
/** The last change at or before `at` (-Infinity when the state never changed). */
export const changedAt = (t: Truth, at: number) => t.timeline.filter((s) => s.at <= at).at(-1)?.at ?? Number.NEGATIVE_INFINITY;

/** A bench endpoint's labels: clean (pay) while up, `dead` while down; nothing else about it is a trap. */
export function benchTruth(e: BenchEndpoint): Truth {
  return {
    url: e.url,
    source: e.group,
    kind: `${e.group} ${e.timeline.map((s) => s.state).join("->")}`,
    timeline: e.timeline.map((s) => ({ at: s.at, down: isDown(s.state) })),
    codes: [],
  };
}

const ALWAYS_DOWN = new Set(["dead_5xx", "dead_refused", "zombie"]);
/** Demo kinds labelled down at some moment of a run: the bench watches them until dead. */
export const DOWN_KINDS = new Set([...ALWAYS_DOWN, "dies_early"]);

/**
 * A demo endpoint's labels (src/demo/expectations.ts), its state over [from, to] included: the
 * flapping one by wall clock, the early dier from DIES_EARLY_AFTER_MS after its first request
 * (`firstProbeAt`, the service's first probe of it). The flapping code of the flapping endpoint
 * is unscored: whether its last hour is mostly healthy depends on the phase the run falls in.
 */
export function demoTruth(d: DemoEndpoint, from: number, to: number, firstProbeAt?: number): Truth {
  // Codes only a paid check gives (expected.evidence "delivery") are not the prober's: unscored.
  const paidOnly = d.expected.evidence === "delivery" ? d.expected.warnings : [];
  const codes = d.expected.warnings
    .filter((w) => !paidOnly.includes(w))
    .filter((w) => w !== "dead" && (SCORED as readonly string[]).includes(w) && !(d.kind === "flapping" && w === "flapping"));
  const timeline = [{ at: Number.NEGATIVE_INFINITY, down: ALWAYS_DOWN.has(d.kind) }];
  if (d.kind === "dies_early" && firstProbeAt !== undefined) timeline.push({ at: firstProbeAt + DIES_EARLY_AFTER_MS, down: true });
  if (d.kind === "flapping") {
    const period = DEFAULT_FLAP_PERIOD_MS;
    timeline[0]!.down = flapIsDown(period, from);
    for (let b = Math.ceil(from / period) * period; b <= to; b += period) timeline.push({ at: b, down: flapIsDown(period, b) });
  }
  const kind = `${d.kind} ${d.method} ${new URL(d.url).pathname}`;
  const unscored = [...(d.expected.mayAlso ?? []), ...paidOnly, ...(d.kind === "flapping" ? ["flapping"] : [])];
  return { url: d.url, source: "demo", kind, timeline, codes, ...(unscored.length ? { unscored } : {}) };
}
