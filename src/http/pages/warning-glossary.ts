import { html } from "hono/html";
import { FORENSICS_CODES, type WarningCode } from "@x402-lookout/contracts/codes";
import { WARNING_GLOSSARY } from "@x402-lookout/contracts/glossary";
import type { Html } from "./layout.js";

/** The warning codes in the glossary's order; each has an anchor on /spec. */
export const GLOSSARY_CODES = Object.keys(WARNING_GLOSSARY) as WarningCode[];

/** The id of a code's entry on /spec: other pages link to `/spec#code-<code>` (codeLink). */
export const codeAnchor = (code: string) => `code-${code}`;
export const codeLink = (code: string) => `/spec#${codeAnchor(code)}`;

const forensicsOnly = new Set<string>(FORENSICS_CODES);

/** The /spec section explaining every warning code in plain words, from the contracts' one glossary. */
export function warningGlossary(): Html {
  return html`<h2 id="warning-codes">Warning codes</h2>
<p>What each code in <code>reason_codes</code> means, in plain words (<code>warnings</code> shows the spec's codes among them); <a href="/openapi.json">the schemas</a> list where each appears. Codes marked 7-day come only with forensics, which judges a week of evidence.</p>
<dl class="glossary">${GLOSSARY_CODES.map(
    (code) =>
      html`<dt id="${codeAnchor(code)}"><code>${code}</code> · ${WARNING_GLOSSARY[code].title}${forensicsOnly.has(code) ? html` <span class="tag">7-day</span>` : ""}</dt><dd>${WARNING_GLOSSARY[code].meaning}</dd>`,
  )}</dl>`;
}

/** The glossary's entries as TOC links. */
export const glossaryToc = (): Html => html`${GLOSSARY_CODES.map((code, i) => html`${i ? ", " : ""}<a href="#${codeAnchor(code)}">${code}</a>`)}`;
