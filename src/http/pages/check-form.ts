import { html, raw } from "hono/html";
import { WARNING_GLOSSARY } from "@x402-lookout/contracts/glossary";
import { preflightTrialContract } from "@x402-lookout/contracts/preflight/preflight-trial";
import { inlineScript } from "./csp.js";
import type { Html } from "./layout.js";

export const CHECK_STYLE = `
.check{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}.check input{flex:1 1 18rem;min-width:0;font:inherit;padding:.35rem .5rem}
.check button{font:inherit;padding:.35rem .9rem}.check-answer{border-left:4px solid #1a7f37;padding:.2rem .8rem;margin:.8rem 0;overflow-wrap:anywhere}
.check-answer.bad{border-color:#cf222e}
`;

// The glossary in the page, for the script's answer; "<" escaped so no text can close the script element.
const GLOSSARY_JSON = JSON.stringify(WARNING_GLOSSARY).replace(/</g, "\\u003c");

// Progressive enhancement: the same form POSTs to the trial route and the answer is drawn in place
// with the words checkVerdict uses. Without JavaScript the form is a GET to /check.
const SCRIPT = `(() => {
const form = document.getElementById("check"), out = document.getElementById("check-result");
const words = JSON.parse(document.getElementById("glossary").textContent);
const el = (tag, text, cls) => { const e = document.createElement(tag); if (text) e.textContent = text; if (cls) e.className = cls; return e; };
const box = (bad, ...children) => { const d = el("div", "", bad ? "check-answer bad" : "check-answer"); d.append(...children); return d; };
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const url = form.elements.url.value;
  out.replaceChildren(el("p", "Checking " + url + "…", "muted"));
  try {
    const res = await fetch("/api/v1/preflight-trial", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url }) });
    const r = await res.json();
    if (!res.ok) return out.replaceChildren(box(true, el("p", r.message || "The check was refused (" + res.status + ").")));
    const head = el("p"); head.append(el("strong", (!r.ok ? "Flagged" : r.reason_codes.length ? "Caveats" : "No warning") + ": " + r.recommended_action), " · risk " + r.risk_score + " · confidence " + r.confidence);
    const m = r.metadata.matched, as = m && m.by !== "exact" && "catalogued as " + m.method + " " + m.url;
    const meta = el("p", [url, r.metadata.service, r.metadata.price_usdc && r.metadata.price_usdc + " USDC", as].filter(Boolean).join(" · "), "muted");
    const list = el("ul");
    for (const code of r.reason_codes) { const w = words[code] || { title: code, meaning: "" }; const li = el("li"); li.append(el("strong", w.title), " (", el("code", code), "): " + w.meaning); list.append(li); }
    out.replaceChildren(box(!r.ok, head, meta, r.reason_codes.length ? list : el("p", "No warning fired.")));
  } catch { out.replaceChildren(box(true, el("p", "The check could not reach the service; try again."))); }
});
})();`;
const checkScript = inlineScript(SCRIPT);

/** The "check a URL" form: a GET to /check without JavaScript, the free trial's POST with it; `answer` is /check's verdict. */
export function checkForm(value: string, answer?: Html): Html {
  return html`<form class="check" id="check" method="get" action="/check">
<label for="check-url">URL of an x402 endpoint</label>
<input id="check-url" name="url" type="url" required placeholder="https://api.example.com/paid" value="${value}">
<button type="submit">Check</button>
</form>
<p class="muted">${preflightTrialContract.summary} Answers are cached 5 minutes per URL.</p>
<div id="check-result" aria-live="polite">${answer ?? ""}</div>
<script type="application/json" id="glossary">${raw(GLOSSARY_JSON)}</script>
${checkScript}`;
}
