import { html } from "hono/html";
import type { Html } from "../../pages/layout.js";

const W = 84;
const H = 22;
const PAD = 2;
/** Days below this share of healthy probes get a red dot: a bad day must be visible at a glance. */
const BAD_DAY_PCT = 90;

/** What the chart says in words: the screen reader's text and the hover title. */
export function sparklineLabel(days: readonly (number | null)[]): string {
  const said = days.map((v) => (v === null ? "no probes" : `${v}%`));
  return `Uptime per day over the last ${days.length} days, oldest first: ${said.join(", ")}`;
}

/**
 * A 7-day uptime sparkline as inline SVG, drawn on the server from the listing's own daily
 * figures (0..100, null for a day without probes: the line breaks there). The y axis is fixed
 * at 0..100 %, so a dip means the same on every row.
 */
export function sparkline(days: readonly (number | null)[]): Html {
  const step = days.length > 1 ? (W - 2 * PAD) / (days.length - 1) : 0;
  const at = (v: number, i: number) => ({ x: round(PAD + i * step), y: round(PAD + ((100 - v) / 100) * (H - 2 * PAD)) });
  const runs: { x: number; y: number }[][] = [];
  days.forEach((v, i) => {
    if (v === null) return void runs.push([]);
    if (runs.length === 0) runs.push([]);
    runs[runs.length - 1]!.push(at(v, i));
  });
  const lines = runs.filter((r) => r.length > 1).map((r) => html`<polyline points="${r.map((p) => `${p.x},${p.y}`).join(" ")}"/>`);
  const dots = days.map((v, i) => {
    if (v === null) return "";
    const p = at(v, i);
    const alone = (days[i - 1] ?? null) === null && (days[i + 1] ?? null) === null;
    return v < BAD_DAY_PCT || alone ? html`<circle cx="${p.x}" cy="${p.y}" r="1.8" fill="${v < BAD_DAY_PCT ? "#cf222e" : "#1a7f37"}"/>` : "";
  });
  const label = sparklineLabel(days);
  const values = days.map((v) => (v === null ? "" : String(v))).join(",");
  return html`<svg class="spark" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}" data-uptime="${values}" xmlns="http://www.w3.org/2000/svg"><title>${label}</title><line x1="0" y1="${H - PAD}" x2="${W}" y2="${H - PAD}" stroke="#d0d7de" stroke-width="1"/><g fill="none" stroke="#1a7f37" stroke-width="1.5" stroke-linejoin="round">${lines}</g>${dots}</svg>`;
}

const round = (n: number) => Math.round(n * 10) / 10;
