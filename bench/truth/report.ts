import { distribution } from "./history.js";
import type { Agreement } from "./samples.js";
import type { Detection, EventType } from "./timing.js";
import type { Truth } from "./truth.js";

/** The issue's target for every time figure: within 3 minutes. */
export const TARGET_MS = 180_000;

/** One time-to-detect line: the distribution of the detected, and the ones not detected (or never probed) in the run. */
export function timeLine(
  label: string,
  ds: readonly Detection[],
  type: EventType,
  start: number,
  end: number,
  at: (d: Detection) => number | null | undefined = (d) => d.detectedAt,
) {
  const of = ds.filter((d) => d.type === type);
  const measured = of.filter((d) => d.origin !== null && at(d) != null).map((d) => at(d)! - d.origin!);
  const missed = of.filter((d) => d.origin !== null && at(d) == null);
  const unprobed = of.filter((d) => d.origin === null);
  const worst = Math.max(0, ...measured, ...missed.map((d) => end - d.origin!));
  const pass = missed.length === 0 && of.length > unprobed.length && worst <= TARGET_MS;
  const shown = (d: Detection) => `${d.source} ${new URL(d.url).pathname} since +${((d.since - start) / 1000).toFixed(0)} s`;
  const extra = [
    missed.length ? `${missed.length} not within the run: ${missed.slice(0, 3).map(shown).join(", ")}` : "",
    unprobed.length ? `${unprobed.length} not probed in the new state before the end: ${unprobed.slice(0, 3).map(shown).join(", ")}` : "",
  ]
    .filter(Boolean)
    .join("; ");
  return { pass, line: `  ${label}: ${distribution(measured)}${extra ? `; ${extra}` : ""}`, measured };
}

/** Agreement of the three actions over the samples, and the disagreements by kind. */
export function agreementLines(samples: readonly Agreement[], inFlux: number, failed: number, truths: ReadonlyMap<string, Truth>): string[] {
  const n = samples.length;
  const count = (f: (a: Agreement) => boolean) => samples.filter(f).length;
  const pct = (k: number) => (n === 0 ? "n/a" : `${((100 * k) / n).toFixed(1)}%`);
  const all = count((a) => a.preflight === a.forensics && a.forensics === a.stored);
  const lines = [
    `  ${n} samples (left out: ${inFlux} whose snapshot changed while asked, ${failed} failed calls): all three agree ${pct(all)}; ` +
      `preflight = forensics ${pct(count((a) => a.preflight === a.forensics))}, preflight = stored ${pct(count((a) => a.preflight === a.stored))}, ` +
      `forensics = stored ${pct(count((a) => a.forensics === a.stored))}`,
  ];
  const differ = new Map<string, number>();
  for (const a of samples.filter((s) => !(s.preflight === s.forensics && s.forensics === s.stored))) {
    const key = `${truths.get(a.url)?.kind ?? "?"}: preflight ${a.preflight}, forensics ${a.forensics}, stored ${a.stored}`;
    differ.set(key, (differ.get(key) ?? 0) + 1);
  }
  for (const [key, k] of [...differ].sort((a, b) => b[1] - a[1]).slice(0, 8)) lines.push(`    ${k} x ${key}`);
  return lines;
}
