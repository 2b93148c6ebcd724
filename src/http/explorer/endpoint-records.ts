import { html } from "hono/html";
import type { EndpointHistory } from "../../services/index.js";
import type { Html } from "../pages/layout.js";
import { timeAt } from "../pages/time-words.js";

const short = (a: string | null) => (a === null ? "none" : a.length > 14 ? `${a.slice(0, 8)}…${a.slice(-4)}` : a);

// A source's claim the endpoint's own challenge contradicts is shown as that source's, not the endpoint's (decision 0032).
const claimNote = (q: EndpointHistory["quotes"][number]) =>
  q.disputed ? html`<br><span class="disputed">${q.profile}'s claim: the endpoint's own challenge says otherwise</span>` : "";

// A quote that reads more than one way is named as such, never shown as a price (docs/verdicts.md).
const malformedNote = (q: EndpointHistory["quotes"][number]) =>
  q.malformed === null ? "" : html`<br><span class="disputed">malformed quote (<code>${q.malformed}</code>): not one price</span>`;

/** The quote spans: what the catalog listed and what the prober's challenges asked, newest first. */
export function quotesSection(h: EndpointHistory): Html {
  const rows = h.quotes.map(
    (q) =>
      html`<tr${q.disputed ? html` class="claim"` : ""}><td>${q.source}${q.profile ? html` <span class="muted">(${q.profile})</span>` : ""}${claimNote(q)}${malformedNote(q)}</td><td class="num">${q.priceUsdc === null ? html`${q.amount} <span class="muted">atomic</span>` : `${q.priceUsdc} USDC`}</td><td><code title="${q.payTo ?? ""}">${short(q.payTo)}</code></td><td><code title="${q.asset ?? ""}">${short(q.asset)}</code> on ${q.network}</td><td>${timeAt(q.firstSeenAt, h.observedAt)}</td><td>${timeAt(q.lastSeenAt, h.observedAt)}</td><td class="num">${q.seen}</td></tr>`,
  );
  return html`<section id="quotes"><h2>Price and quote history</h2>
${h.quotes.length === 0 ? html`<p class="muted">No quote recorded yet.</p>` : html`<div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">seen by</th><th scope="col" class="num">price</th><th scope="col">payTo</th><th scope="col">asset</th><th scope="col">first seen</th><th scope="col">last seen</th><th scope="col" class="num">times</th></tr></thead><tbody>${rows}</tbody></table></div>`}</section>`;
}

/** The delist records: spans of flagged days, and whether the endpoint recovered since. */
export function flagsSection(h: EndpointHistory): Html {
  const rows = h.flags.map(
    (f) =>
      html`<tr class="${f.recovered ? "recovered" : "flagged"}"><td>${f.from === f.to ? f.from : `${f.from} to ${f.to}`}</td><td>${f.reasons.map((r) => html`<code>${r}</code> `)}</td><td>${f.recovered ? "recovered" : "flagged now"}</td></tr>`,
  );
  return html`<section id="flags"><h2>Flag history</h2>
${h.flags.length === 0 ? html`<p>Never flagged for delisting in the last year.</p>` : html`<div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">UTC days</th><th scope="col">reasons</th><th scope="col">state</th></tr></thead><tbody>${rows}</tbody></table></div>`}</section>`;
}

/** The certificates covering it, each linking to its own page. */
export function certificatesSection(h: EndpointHistory): Html {
  const items = h.certificates.map(
    (c) =>
      html`<li><a href="/verified/${encodeURIComponent(c.certId)}">${c.name}</a>: <strong>${c.state}</strong>, issued ${timeAt(c.issuedAt, h.observedAt)}, valid until ${timeAt(c.validUntil, h.observedAt)}</li>`,
  );
  return html`<section id="certificates"><h2>Certificates</h2>
${items.length ? html`<ul>${items}</ul>` : html`<p class="muted">No certificate covers this endpoint. Its provider can <a href="/api/v1/verified">request one</a>.</p>`}</section>`;
}
