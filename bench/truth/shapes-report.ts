import type { DemoEndpoint } from "../../src/demo/index.js";
import { firstProbe, type ListingHistory } from "./history.js";
import type { Agreement } from "./samples.js";
import { TARGET_MS } from "./report.js";
import type { Detection } from "./timing.js";
import type { Truth } from "./truth.js";

/** The demo kinds of issue 37 (the real ecosystem's shapes) and the flapper, whose actions the report lists. */
export const SHAPE_KINDS = ["needs_query", "needs_input", "big_challenge", "dies_early", "flapping"] as const;

/**
 * The actions each kind's label rules out (src/demo/expectations.ts): what needs input is never
 * read as dead (skip, use_alternatives) nor, when it needs more than it declares, as pay; a large
 * challenge is never read as dead; a flapper never pays once it has been down. The early dier's
 * figure is its time to dead. Samples of a listing's first minutes (low confidence) read investigate.
 */
const RULED_OUT: Readonly<Record<(typeof SHAPE_KINDS)[number], readonly string[]>> = {
  needs_query: ["skip", "use_alternatives"],
  needs_input: ["pay", "skip", "use_alternatives"],
  big_challenge: ["skip", "use_alternatives"],
  dies_early: [],
  flapping: ["pay"],
};
/** Kinds whose rule holds from their first failed probe on: before it a flapper is a healthy listing (expectations.ts). */
const FROM_FIRST_FAILURE = new Set<string>(["flapping"]);

/** Preflight's actions over the agreement samples of each kind, and the samples outside the label's. */
export function actionsOfKinds(
  samples: readonly Agreement[],
  truths: ReadonlyMap<string, Truth>,
  history: ReadonlyMap<string, ListingHistory>,
  kinds: readonly (typeof SHAPE_KINDS)[number][],
): string[] {
  const lines = ["actions of the ecosystem's shapes (preflight, over the agreement samples):"];
  for (const kind of kinds) {
    const of = samples.filter((a) => truths.get(a.url)?.kind.startsWith(`${kind} `));
    const counts = new Map<string, number>();
    for (const a of of) counts.set(a.preflight, (counts.get(a.preflight) ?? 0) + 1);
    const from = (url: string) => (FROM_FIRST_FAILURE.has(kind) ? (firstProbe(history.get(url), 0, false)?.at ?? Infinity) : -Infinity);
    const outside = of.filter((a) => RULED_OUT[kind].includes(a.preflight) && a.at >= from(a.url)).length;
    const shown = [...counts].map(([action, n]) => `${action} ${n}`).join(", ") || "no samples";
    const when = FROM_FIRST_FAILURE.has(kind) ? " from its first failed probe" : "";
    const rule = RULED_OUT[kind].length ? `; ruled out by the label (${RULED_OUT[kind].join(", ")}${when}): ${outside}` : "";
    lines.push(`  ${kind}: ${shown}${rule}`);
  }
  return lines;
}

/** The early dier's time to dead, from its first failed probe (decision 0047's target: 3 minutes). */
export function diesEarlyLine(demo: readonly DemoEndpoint[], ds: readonly Detection[], start: number): string {
  const url = demo.find((d) => d.kind === "dies_early")?.url;
  const d = ds.find((x) => x.url === url && x.type === "dead");
  if (!d || d.origin === null) return "demo dies_early: no failed probe within the run";
  if (!d.detectedAt) return `demo dies_early: first failed probe ${((d.origin - start) / 1000).toFixed(1)} s after the start, not dead within the run`;
  const took = d.detectedAt - d.origin;
  return `demo dies_early: dead ${(took / 1000).toFixed(1)} s after its first failed probe (${took <= TARGET_MS ? "within" : "OVER"} ${TARGET_MS / 1000} s; first failure ${((d.origin - start) / 1000).toFixed(1)} s after the start)`;
}
