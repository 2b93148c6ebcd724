import { html } from "hono/html";
import type { EndpointHistory } from "../../services/index.js";
import type { Html } from "../pages/layout.js";
import { timeAt } from "../pages/time-words.js";

const WORDS: Record<string, string> = {
  delivered: "delivered",
  undelivered: "paid, nothing delivered",
  invalid_output: "delivered off its declared schema",
  refused_after_payment: "paid, then refused",
};

/**
 * Payers' word (decision 0052): the last ten reports, each signed by the wallet whose settlement
 * it names. The detail is the payer's own text: the template escapes it like every value here.
 */
export function payerReportsSection(h: EndpointHistory): Html {
  const d = h.deliveries;
  if (d.reports.length === 0) return html``;
  const rows = d.reports.map(
    (
      r,
    ) => html`<tr><td>${timeAt(new Date(r.accepted_at), h.observedAt)}</td><td>${WORDS[r.outcome] ?? r.outcome}</td><td><code>${r.payer.slice(0, 10)}…</code></td>
<td class="price">${r.amount_usdc} USDC</td><td><code>${r.tx.slice(0, 10)}…</code></td><td>${r.detail}</td></tr>`,
  );
  return html`<section id="payer-reports"><h2>Payer reports</h2>
<p>Wallets that paid this endpoint said what they got, each report signed by the wallet and proven by its settlement on chain.
In 30 days: <strong id="payer-failures">${d.payer_failures_30d} of ${d.payer_reports_30d}</strong> reports say it failed.</p>
<table><thead><tr><th scope="col">when</th><th scope="col">outcome</th><th scope="col">payer</th><th scope="col">paid</th><th scope="col">transaction</th><th scope="col">detail</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}
