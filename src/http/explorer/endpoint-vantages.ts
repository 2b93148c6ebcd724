import { html } from "hono/html";
import type { EndpointHistory } from "../../services/index.js";
import type { Html } from "../pages/layout.js";
import { timeAt } from "../pages/time-words.js";

const pct = (v: number | null) => (v === null ? "no data" : `${v}%`);

/**
 * Uptime and quote per probe vantage (decision 0048), shown once two or more vantages probed it:
 * a one-vantage deployment's page stays as it was.
 */
export function vantagesSection(h: EndpointHistory): Html {
  if (h.vantages.length < 2) return html``;
  const rows = h.vantages.map(
    (v) => html`<tr><th scope="row"><code>${v.name}</code></th><td>${pct(v.uptime_1h_pct)}</td><td>${pct(v.uptime_3h_pct)} of ${v.probes_3h}</td>
<td>${v.last_probe_at === null ? "none" : timeAt(new Date(v.last_probe_at), h.observedAt)}</td>
<td>${v.quote === null ? "none" : html`<span class="price">${v.quote.amount}</span> to <code>${v.quote.pay_to ?? "unknown"}</code> (${v.quote.network})`}</td></tr>`,
  );
  return html`<section id="vantages"><h2>By probe vantage</h2><p class="muted">Each place the prober probes from; an endpoint that answers or quotes differently by vantage is suspect.</p>
<table><thead><tr><th scope="col">vantage</th><th scope="col">uptime 1 h</th><th scope="col">uptime 3 h</th><th scope="col">last probe</th><th scope="col">newest quote (atomic units)</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}
