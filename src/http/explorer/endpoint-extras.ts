import { html } from "hono/html";
import { alternativesContract } from "@x402-lookout/contracts/catalog/alternatives";
import { forensicsContract } from "@x402-lookout/contracts/preflight/forensics";
import { createWatchContract } from "@x402-lookout/contracts/watch/create-watch";
import type { EndpointHistory } from "../../services/index.js";
import type { Html } from "../pages/layout.js";
import { BADGE_KINDS } from "./badges.js";

export const badgePath = (id: number, kind: string) => `/badges/endpoints/${id}/${kind}.svg`;

const BADGE_ALT = { verdict: "x402 Lookout verdict", uptime: "7-day uptime", latency: "7-day average latency" } as const;

/** Each badge with its Markdown and HTML embed snippets (absolute addresses), copyable once JS runs. */
export function badgesSection(h: EndpointHistory, base: string): Html {
  const page = `${base}/endpoints/${h.endpoint.id}`;
  const copyable = (label: string, text: string) =>
    html`<div class="try"><button type="button" class="copy" hidden aria-label="${label}">Copy</button><pre><code>${text}</code></pre></div>`;
  const items = BADGE_KINDS.map((kind) => {
    const src = `${base}${badgePath(h.endpoint.id, kind)}`;
    const alt = BADGE_ALT[kind];
    return html`<h3>${alt}</h3><p><img src="${badgePath(h.endpoint.id, kind)}" alt="${alt} badge of this endpoint" height="20"></p>
${copyable(`Copy the Markdown of the ${kind} badge`, `[![${alt}](${src})](${page})`)}
${copyable(`Copy the HTML of the ${kind} badge`, `<a href="${page}"><img src="${src}" alt="${alt}"></a>`)}`;
  });
  return html`<section id="badges"><h2>Badges</h2><p class="muted">Free to embed; each is cached five minutes.</p>${items}</section>`;
}

/** The paid routes that say more, linked to their reference pages with their prices. */
export function moreSection(h: EndpointHistory): Html {
  const routes = [
    [forensicsContract, "the signed forensics report: these 7 days as JSON with decoy probability and concentration"],
    [alternativesContract, "healthy substitutes for this endpoint"],
    [createWatchContract, "signed webhook alerts when a signal of this endpoint fires or clears"],
  ] as const;
  return html`<section id="more"><h2>More, paid per call</h2><p>With this endpoint's URL <code>${h.endpoint.url}</code>:</p><ul>
${routes.map(([r, what]) => html`<li><a href="${r.path}">${r.title}</a> (<code>POST ${r.path}</code>, <span class="price">${r.price} USDC</span>): ${what}</li>`)}
</ul></section>`;
}
