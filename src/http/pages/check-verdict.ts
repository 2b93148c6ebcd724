import { html } from "hono/html";
import type { SignedPreflightReport } from "@x402-lookout/contracts/preflight/schemas";
import { WARNING_GLOSSARY } from "@x402-lookout/contracts/glossary";
import type { WarningCode } from "@x402-lookout/contracts/codes";
import type { Html } from "./layout.js";

/** A warning code in plain words; a code the glossary does not know yet shows as itself. */
export const glossaryOf = (code: string) => WARNING_GLOSSARY[code as WarningCode] ?? { title: code, meaning: "" };

/** The free trial's answer for people: the action, the risk, and each code that fired (reason_codes) explained, in the same words the script uses in place. */
export function checkVerdict(url: string, r: SignedPreflightReport): Html {
  return html`<div class="check-answer ${r.ok ? "ok" : "bad"}">
<p><strong>${!r.ok ? "Flagged" : r.reason_codes.length ? "Caveats" : "No warning"}: ${r.recommended_action}</strong> · risk ${r.risk_score} · confidence ${r.confidence}</p>
<p class="muted">${url}${r.metadata.service ? ` · ${r.metadata.service}` : ""}${r.metadata.price_usdc ? ` · ${r.metadata.price_usdc} USDC` : ""}${catalogued(r)}</p>
${
  r.reason_codes.length === 0
    ? html`<p>No warning fired.</p>`
    : html`<ul>${r.reason_codes.map((code) => html`<li><strong>${glossaryOf(code).title}</strong> (<code>${code}</code>): ${glossaryOf(code).meaning}</li>`)}</ul>`
}
</div>`;
}

/** The listing that answered, when the URL asked is another spelling of it (docs/signals.md "How a URL is matched"). */
export const catalogued = (r: SignedPreflightReport): string =>
  r.metadata.matched && r.metadata.matched.by !== "exact" ? ` · catalogued as ${r.metadata.matched.method} ${r.metadata.matched.url}` : "";

/** A refused check (bad URL, the trial's daily limit, a timeout), said in words with its status. */
export const checkRefused = (message: string) => html`<div class="check-answer bad" role="alert"><p>${message}</p></div>`;
