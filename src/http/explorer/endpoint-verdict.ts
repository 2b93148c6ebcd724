import { html } from "hono/html";
import { WARNING_GLOSSARY } from "@x402-lookout/contracts/glossary";
import type { WarningCode } from "@x402-lookout/contracts/codes";
import type { EndpointVerdict } from "../../services/index.js";
import type { Html } from "../pages/layout.js";
import { verdictBadge } from "./list-table.js";

/** Each action said as a person would act on it. */
const SAID: Record<string, string> = {
  pay: "Pay: nothing we observed stands against paying this endpoint.",
  investigate: "Investigate before paying: something we observed needs a look.",
  use_alternatives: "Use an alternative: this endpoint is not fit to pay now.",
  skip: "Do not pay: what we observed makes a payment here a likely loss.",
};

/**
 * The current verdict in plain words (the stored preflight view, the one the free trial and
 * preflight answer), each warning with its glossary meaning and a link to /spec's entry.
 */
export function verdictSection(v: EndpointVerdict | null, active: boolean): Html {
  if (!v) {
    const why = active
      ? "No verdict pass has reached this endpoint yet: it was listed moments ago."
      : "This endpoint left the catalog: it has no current verdict.";
    return html`<section id="verdict"><h2>Verdict</h2><p>${verdictBadge({ action: null })} ${why}</p></section>`;
  }
  const warnings = v.warnings.map((code) => {
    const g = WARNING_GLOSSARY[code as WarningCode];
    return html`<dt id="w-${code}"><a href="/spec#code-${code}"><code>${code}</code></a>${g ? html` ${g.title}` : ""}</dt><dd>${g?.meaning ?? "See the specification."}</dd>`;
  });
  return html`<section id="verdict"><h2>Verdict</h2>
<p class="said" data-action="${v.action}" data-ok="${String(v.ok)}">${verdictBadge(v)} ${SAID[v.action] ?? v.action}</p>
<p class="muted">ok: <strong>${v.ok ? "yes" : "no"}</strong> (${v.ok ? "no critical warning fires" : "a critical warning fires"}); recommended action: <code>${v.action}</code>. The same verdict the free
<a href="/api/v1/preflight-trial">preflight trial</a> and paid preflight answer for this URL.</p>
${v.warnings.length ? html`<h3>Why: ${v.warnings.length} warning${v.warnings.length === 1 ? "" : "s"}</h3><dl class="glossary" id="warnings">${warnings}</dl>` : html`<p>No warning holds.</p>`}
</section>`;
}
