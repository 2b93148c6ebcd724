import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { SERVICE_NAME } from "../attribution.js";
import { inlineStyle } from "./csp.js";
import { FAVICON_PATH } from "./favicon.js";
import { TIME_STYLE } from "./time-words.js";

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

// Colours are variables, so one media query gives every page its dark scheme (issue 35 item 9).
const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--soft:#eaeef2;--code:#f6f8fa;--link:#0969da;--tag:#ddf4ff;--ok:#1a7f37;--bad:#cf222e}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--soft:#262c36;--code:#161b22;--link:#4493f8;--tag:#0c2d6b;--ok:#3fb950;--bad:#f85149}}
html{background:var(--bg)}a{color:var(--link)}
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:var(--fg);background:var(--bg)}
header{border-bottom:1px solid var(--line);margin-bottom:1.5rem}header a{color:inherit;text-decoration:none}
h1{font-size:1.8rem;margin:.2rem 0 .6rem}h2{margin-top:2rem;border-bottom:1px solid var(--soft)}
code,pre{font:14px/1.4 ui-monospace,monospace;background:var(--code);border-radius:4px}
code{padding:.1rem .3rem}pre{padding:.8rem;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere}pre code{padding:0}
table{border-collapse:collapse;width:100%;margin:.6rem 0}th,td{border:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:var(--code)}.price{font-weight:600}.muted{color:var(--muted)}header nav a{margin-right:1rem;display:inline-block}
.tag{display:inline-block;padding:0 .4rem;border-radius:3px;background:var(--tag);color:var(--fg);font-size:.85rem}
.scroll{overflow-x:auto;margin:.6rem 0}.scroll>table{margin:0}
p,li,dt,dd,td,th,h1,h2,h3{overflow-wrap:break-word}code,a{overflow-wrap:anywhere}.fields code{overflow-wrap:normal}img,svg{max-width:100%}img{height:auto}
.try{position:relative}.try pre{padding-right:4.5rem}.copy{position:absolute;top:.4rem;right:.4rem;font-size:.8rem}
.glossary dt{font-weight:600;margin-top:.7rem}.glossary dd{margin:0 0 0 1.5rem}.toc li{margin:.1rem 0}
${TIME_STYLE}`;

/** A page's own additions: its CSS (static text of the page's module, never request data: the page policy allows it by hash). */
export interface PageExtras {
  style?: string;
}

export function layout(title: string, body: Html, extras: PageExtras = {}): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · ${SERVICE_NAME}</title><link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">${inlineStyle(STYLE + (extras.style ?? ""))}</head>
<body><header><nav><a href="/"><strong>${SERVICE_NAME}</strong></a><a href="/endpoints">Endpoints</a><a href="/spec">Specification</a><a href="/openapi.json">OpenAPI</a></nav></header>
<main>${body}</main>
<footer class="muted"><p>Signals are provenance, not endorsement: ${SERVICE_NAME} reports what its probes observed.</p></footer>
</body></html>`;
}

export const json = (value: unknown) => html`<pre><code>${JSON.stringify(value, null, 2)}</code></pre>`;
