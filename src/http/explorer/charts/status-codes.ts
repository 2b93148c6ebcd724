import { html } from "hono/html";
import type { Html } from "../../pages/layout.js";

/** What a status means for an x402 endpoint: 402 is the healthy answer of an unpaid probe. */
const MEANING: Record<string, string> = {
  "402": "payment required (the healthy answer)",
  "200": "answered without payment",
  network_error: "no HTTP answer (refused, reset, timeout)",
};
const meaningOf = (code: string) =>
  MEANING[code] ?? (code.startsWith("5") ? "server error" : code.startsWith("4") ? "client error" : code.startsWith("3") ? "redirect" : "");

/**
 * The status codes of 7 days of probes as a table, each row with its share as a bar (an SVG
 * bar whose number is in the cell beside it, so the table reads without the bar; a rect's width,
 * not a style attribute, which the page policy would refuse).
 */
export function statusCodesTable(codes: Readonly<Record<string, number>>): Html {
  const entries = Object.entries(codes).sort(([, a], [, b]) => b - a);
  const total = entries.reduce((n, [, c]) => n + c, 0);
  if (total === 0) return html`<p class="muted">No probe in the last 7 days.</p>`;
  return html`<div class="table-wrap" tabindex="0"><table class="codes" id="status-codes"><thead><tr><th scope="col">status</th><th scope="col">meaning</th><th scope="col" class="num">probes</th><th scope="col" class="num">share</th><th scope="col"><span class="sr">share as a bar</span></th></tr></thead><tbody>
${entries.map(([code, n]) => {
  const pct = Math.round((1000 * n) / total) / 10;
  return html`<tr data-code="${code}"><td><code>${code}</code></td><td>${meaningOf(code)}</td><td class="num">${n}</td><td class="num">${pct}%</td><td><svg class="bar" viewBox="0 0 100 1" preserveAspectRatio="none" aria-hidden="true"><rect width="${Math.max(1, Math.round(pct))}" height="1"/></svg></td></tr>`;
})}</tbody></table></div>`;
}
