import { html } from "hono/html";
import type { CertificateView, CriterionReport, Observed, WarningCode } from "../../services/index.js";
import { CRITICAL } from "../../services/index.js";
import { SERVICE_NAME } from "../attribution.js";
import { layout, type Html } from "../pages/layout.js";
import { timeAt } from "../pages/time-words.js";

const show = (v: Observed) => (v === null ? "no data" : String(v));
/** A long token (the JWS, the embed snippet) wrapped inside the page width instead of scrolling. */
const block = (text: string) => html`<pre class="token"><code>${text}</code></pre>`;
const yes = (met: boolean) => (met ? html`<strong class="met">met</strong>` : html`<strong class="unmet">not met</strong>`);
// Classes, not style attributes: the page policy allows styles only by hash (pages/csp.ts).
const STYLE = ".token{white-space:pre-wrap;word-break:break-all}.met{color:var(--ok)}.unmet{color:var(--bad)}";

/** The public page of a certificate: its live state and the evidence behind every criterion. */
export function verifiedPage(v: CertificateView): Html {
  const when = (d: Date | null) => timeAt(d, v.checkedAt);
  const atIssue = new Map(v.issuedCriteria.map((c) => [c.id, c]));
  const embed = `[![${v.name}: x402 verified](${v.badgeUrl})](${v.pageUrl})`;
  return layout(
    `${v.name}: certificate`,
    html`<h1>${v.name}</h1>
<p id="holder">${holder(v)}</p>
<p><img src="${v.badgeUrl}" alt="${v.name}: ${v.state === "verified" ? "x402 verified" : "x402 certificate lapsed"}" id="badge"></p>
<p id="state">${
      v.state === "verified"
        ? html`<strong>Verified.</strong> Every endpoint this certificate covers meets every criterion now, and the certificate is valid until ${when(v.validUntil)}.`
        : html`<strong>Lapsed.</strong> This certificate no longer holds:`
    }</p>
${v.lapsedBecause.length ? html`<ul id="lapsed">${v.lapsedBecause.map((r) => html`<li>${r}</li>`)}</ul>` : ""}
<table><tbody>
<tr><th>certified</th><td><code>${v.url}</code></td></tr>
<tr><th>host</th><td><code>${v.host}</code></td></tr>
<tr><th>payTo</th><td>${v.payTo ? html`<code>${v.payTo}</code> (${PROVEN[v.provenBy!]})` : html`<em>never proven</em>`}</td></tr>
<tr><th>certificate id</th><td><code>${v.certId}</code></td></tr>
<tr><th>issued</th><td>${when(v.issuedAt)}</td></tr>
<tr><th>valid until</th><td>${when(v.validUntil)}</td></tr>
<tr><th>endpoints covered</th><td>${v.listings.length}</td></tr>
<tr><th>state checked</th><td>${when(v.checkedAt)}</td></tr>
</tbody></table>
<h2>Criteria</h2>
<table id="criteria"><thead><tr><th>criterion</th><th>required</th><th>now</th><th>observed now</th><th>observed at issue</th></tr></thead><tbody>
${v.criteria.map((c) => html`<tr><td>${c.description}</td><td>${c.required}</td><td>${yes(c.met)}</td><td>${show(c.observed)}${failing(c)}</td><td>${show(atIssue.get(c.id)?.observed ?? null)}</td></tr>`)}
</tbody></table>
<h2>Evidence per endpoint</h2>
<table id="evidence"><thead><tr><th>endpoint</th><th>probes 7 d</th><th>uptime 7 d</th><th>p99 7 d</th><th>price (USDC)</th><th>critical warnings</th><th>latest probe</th></tr></thead><tbody>
${v.listings.map((e) => {
  const critical = e.warnings.filter((w) => CRITICAL.has(w as WarningCode));
  return html`<tr><td><code>${e.method} ${e.url}</code>${e.active ? "" : html` <em>(no longer listed)</em>`}</td><td>${e.probes7d}</td><td>${e.uptime7dPct === null ? "no data" : `${Math.round(e.uptime7dPct * 10) / 10}%`}</td><td>${e.p99Latency7dMs === null ? "no data" : `${e.p99Latency7dMs} ms`}</td><td>${e.priceUsdc ?? "unknown"}</td><td>${critical.length ? critical.join(", ") : "none"}</td><td>${when(e.lastProbeAt)}: ${e.lastOutcome ?? "none"}, HTTP ${e.lastStatusCode ?? "none"}, x402 v${e.lastChallengeVersion ?? "?"}</td></tr>`;
})}
</tbody></table>
<h2>Verify it yourself</h2>
<p>The certificate as issued is a compact JWS signed with Ed25519 (EdDSA). Verify it against the public keys at <a href="${v.jwksUrl}">${v.jwksUrl}</a>, for instance with <code>jose</code>: <code>jwtVerify(jws, createRemoteJWKSet(new URL("${v.jwksUrl}")))</code>.</p>
${v.jws ? block(v.jws) : html`<p class="muted">No signature stored.</p>`}
<h2>Show the badge</h2>
<p>The badge shows the live state: it turns to lapsed when an endpoint stops meeting a criterion or the certificate expires.</p>
${block(embed)}
<p class="muted">${SERVICE_NAME} certifies what its probes observed: this is provenance, not an endorsement of the provider and not a trust guarantee.</p>`,
    { style: STYLE },
  );
}

const PROVEN = { payment: "proven: the certificate was paid from this address", signature: "proven: this address signed the request" } as const;

/** Whose certificate it is: a name alone says nothing, the host and the proven payTo do. */
function holder(v: CertificateView): Html {
  if (!v.payTo) return html`For endpoints on <code>${v.host}</code>. Control of their payTo was never proven.`;
  return html`For endpoints on <code>${v.host}</code> paid to <code>${v.payTo}</code>, whose holder requested this certificate.`;
}

function failing(c: CriterionReport): Html | string {
  if (c.failing.length === 0) return "";
  const more = c.failing_count > c.failing.length ? html`<li>and ${c.failing_count - c.failing.length} more</li>` : "";
  return html`<ul>${c.failing.map((f) => html`<li><code>${f.method} ${f.url}</code>: ${show(f.observed)}</li>`)}${more}</ul>`;
}
