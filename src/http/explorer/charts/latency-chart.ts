import { html } from "hono/html";
import type { HourBucket } from "../../../services/index.js";
import type { Html } from "../../pages/layout.js";

const W = 720;
const H = 220;
const M = { left: 56, right: 12, top: 12, bottom: 34 };

/** A round top for the y axis (1, 2 or 5 times a power of ten) at or above the slowest p90. */
export function axisMax(ms: number): number {
  if (ms <= 0) return 100;
  const p = 10 ** Math.floor(Math.log10(ms));
  return [1, 2, 5, 10].map((k) => k * p).find((v) => v >= ms)!;
}

export function latencyLabel(hours: readonly HourBucket[]): string {
  const timed = hours.filter((b) => b.p50Ms !== null);
  if (timed.length === 0) return `Latency by hour over the last ${hours.length} hours: no timed probes`;
  const p50s = timed.map((b) => b.p50Ms!);
  const p90s = timed.map((b) => b.p90Ms!);
  return `Latency by hour over the last ${hours.length} hours, ${timed.length} hours timed: p50 from ${Math.min(...p50s)} to ${Math.max(...p50s)} ms, p90 from ${Math.min(...p90s)} to ${Math.max(...p90s)} ms`;
}

/**
 * p50 (solid) and p90 (dashed, so the lines differ without colour) by hour, oldest on the left,
 * on a y axis from 0 ms; a line breaks at an hour without a timed probe.
 */
export function latencyChart(hours: readonly HourBucket[]): Html {
  const top = axisMax(Math.max(0, ...hours.map((b) => b.p90Ms ?? 0)));
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const x = (i: number) => round(M.left + (hours.length > 1 ? (i * plotW) / (hours.length - 1) : 0));
  const y = (ms: number) => round(M.top + plotH - (ms / top) * plotH);
  const lines = (pick: (b: HourBucket) => number | null, cls: string) => {
    const runs: string[][] = [[]];
    hours.forEach((b, i) => {
      const v = pick(b);
      if (v === null) runs.push([]);
      else runs[runs.length - 1]!.push(`${x(i)},${y(v)}`);
    });
    return runs
      .filter((r) => r.length > 0)
      .map((r) =>
        r.length === 1
          ? html`<circle class="${cls}" cx="${r[0]!.split(",")[0]}" cy="${r[0]!.split(",")[1]}" r="2"/>`
          : html`<polyline class="${cls}" points="${r.join(" ")}"/>`,
      );
  };
  const ticks = [0, top / 2, top].map(
    (v) =>
      html`<line x1="${M.left - 4}" y1="${y(v)}" x2="${W - M.right}" y2="${y(v)}" stroke="#eaeef2"/><text x="${M.left - 8}" y="${y(v) + 4}" text-anchor="end">${v} ms</text>`,
  );
  const days = hours.flatMap((b, i) =>
    b.hour.endsWith("T00:00:00.000Z")
      ? [
          html`<line x1="${x(i)}" y1="${H - M.bottom}" x2="${x(i)}" y2="${H - M.bottom + 4}" stroke="#57606a"/><text x="${x(i)}" y="${H - M.bottom + 16}" text-anchor="middle">${b.hour.slice(5, 10)}</text>`,
        ]
      : [],
  );
  const label = latencyLabel(hours);
  return html`<svg class="latency-chart" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}" data-max="${top}" xmlns="http://www.w3.org/2000/svg"><title>${label}</title>
<g font-size="11" fill="#57606a" font-family="system-ui,sans-serif">${ticks}${days}<text x="${M.left + plotW / 2}" y="${H - 4}" text-anchor="middle">hour (UTC), oldest on the left</text></g>
<line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${H - M.bottom}" stroke="#57606a"/><line x1="${M.left}" y1="${H - M.bottom}" x2="${W - M.right}" y2="${H - M.bottom}" stroke="#57606a"/>
<g fill="none" stroke="#0969da" stroke-width="1.5" stroke-dasharray="5 3" stroke-linejoin="round">${lines((b) => b.p90Ms, "p90")}</g>
<g fill="none" stroke="#1b1f24" stroke-width="1.5" stroke-linejoin="round">${lines((b) => b.p50Ms, "p50")}</g></svg>`;
}

const round = (n: number) => Math.round(n * 10) / 10;
