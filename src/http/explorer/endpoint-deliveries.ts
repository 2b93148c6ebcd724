import { html } from "hono/html";
import type { EndpointHistory } from "../../services/index.js";
import type { Html } from "../pages/layout.js";
import { timeAt } from "../pages/time-words.js";

const OUTCOME_WORDS: Record<string, string> = {
  delivered: "delivered",
  invalid_output: "delivered off its declared schema",
  undelivered: "paid, nothing delivered",
  refused_after_payment: "paid, then refused",
  not_settled: "answered without settling",
};

/**
 * The paid checker's history of the endpoint (decision 0051): each paid check, what it paid and
 * got, and a link to its signed evidence. Every value here came from the endpoint or the chain,
 * so each is escaped by the template (reasons, transaction hashes).
 */
export function deliveriesSection(h: EndpointHistory): Html {
  const d = h.deliveries;
  if (d.recent.length === 0)
    return html`<section id="deliveries"><h2>Paid delivery checks</h2><p class="muted">Not checked by the paid checker yet (<a href="/prober">who pays and why</a>).</p></section>`;
  const rows = d.recent.map(
    (c) => html`<tr><td>${timeAt(new Date(c.checked_at), h.observedAt)}</td><td>${OUTCOME_WORDS[c.outcome] ?? c.outcome}</td><td>${c.reason ?? ""}</td>
<td class="price">${c.paid_usdc ?? "0"} USDC</td><td>${c.tx ? html`<code>${c.tx.slice(0, 10)}…</code>` : "none"}</td><td><a href="${c.evidence_url}">signed evidence</a></td></tr>`,
  );
  return html`<section id="deliveries"><h2>Paid delivery checks</h2>
<p>x402 Lookout pays this endpoint from its own wallet now and then and judges what it delivers (<a href="/prober">who pays and why</a>).
In 30 days: <strong id="delivered-30d">${d.delivered_30d} of ${d.checks_30d}</strong> checks delivered.</p>
<table><thead><tr><th scope="col">when</th><th scope="col">outcome</th><th scope="col">why</th><th scope="col">paid</th><th scope="col">transaction</th><th scope="col">evidence</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}
