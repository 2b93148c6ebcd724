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

/** `0x1234…cdef`: enough of a wallet or hash to tell them apart; the full one is in its title. */
const short = (hex: string) => html`<code title="${hex}">${hex.slice(0, 6)}…${hex.slice(-4)}</code>`;

/**
 * Payers' word (decision 0052): the last ten reports, each signed by the wallet whose settlement
 * it names. A failure is marked in words, not colour alone. The detail is the payer's own text:
 * the template escapes it like every value here.
 */
export function payerReportsSection(h: EndpointHistory): Html {
  const d = h.deliveries;
  if (d.reports.length === 0)
    return html`<section id="payer-reports"><h2>Payer reports</h2><p class="muted">No wallet that paid this endpoint has reported what it got in 30 days.</p></section>`;
  const rows = d.reports.map((r) => {
    const failed = r.outcome !== "delivered";
    return html`<tr class="${failed ? "report-failed" : "report-ok"}"><td>${failed ? html`<strong>failed:</strong> ` : ""}${WORDS[r.outcome] ?? r.outcome}</td>
<td>${short(r.payer)}</td><td class="price">${r.amount_usdc} USDC</td><td>${timeAt(new Date(r.settled_at), h.observedAt)}</td>
<td>${timeAt(new Date(r.accepted_at), h.observedAt)}</td><td>${r.detail}</td><td>${short(r.tx)}</td></tr>`;
  });
  return html`<section id="payer-reports"><h2>Payer reports</h2>
<p>Wallets that paid this endpoint said what they got, each report signed by the wallet and proven by its settlement on chain.
In 30 days: <strong id="payer-failures">${d.payer_failures_30d} of ${d.payer_reports_30d}</strong> reports say it failed;
<span id="payers-failed-7d">${d.payers_failed_7d}</span> distinct payers' newest report in 7 days says they paid and got nothing.</p>
<div class="scroll"><table class="reports"><thead><tr><th scope="col">outcome</th><th scope="col">payer</th><th scope="col">paid</th><th scope="col">settled</th><th scope="col">reported</th><th scope="col">detail</th><th scope="col">transaction</th></tr></thead>
<tbody>${rows}</tbody></table></div></section>`;
}
