import { html } from "hono/html";
import type { Totals } from "../../services/index.js";
import type { Html } from "../pages/layout.js";

/** A provider's or service's totals: endpoints, how many are flagged and why (each code a link narrowing `path`), mean uptime. */
export function totalsBlock(t: Totals, path: string): Html {
  const reasons = Object.entries(t.flaggedBy).sort(([a], [b]) => (a < b ? -1 : 1));
  return html`<table id="totals"><tbody>
<tr><th scope="row">endpoints listed</th><td>${t.endpoints}</td></tr>
<tr><th scope="row">flagged</th><td>${t.flagged}${reasons.length ? html` (${reasons.map(([r, n], i) => html`${i ? ", " : ""}<a href="${path}?warning=${r}">${r}</a>: ${n}`)})` : ""}</td></tr>
<tr><th scope="row">average uptime 7 d</th><td>${t.avgUptime7dPct === null ? "no data" : `${t.avgUptime7dPct}%`}</td></tr>
</tbody></table>`;
}
