import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { SERVICE_NAME } from "../attribution.js";
import { inlineStyle } from "./csp.js";

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
header{border-bottom:1px solid #d0d7de;margin-bottom:1.5rem}header a{color:inherit;text-decoration:none}
h1{font-size:1.8rem;margin:.2rem 0 .6rem}h2{margin-top:2rem;border-bottom:1px solid #eaeef2}
code,pre{font:14px/1.4 ui-monospace,monospace;background:#f6f8fa;border-radius:4px}
code{padding:.1rem .3rem}pre{padding:.8rem;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere}pre code{padding:0}
table{border-collapse:collapse;width:100%;margin:.6rem 0}th,td{border:1px solid #d0d7de;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}.price{font-weight:600}.muted{color:#57606a}header nav a{margin-right:1rem;display:inline-block}
.tag{display:inline-block;padding:0 .4rem;border-radius:3px;background:#ddf4ff;font-size:.85rem}
.scroll{overflow-x:auto;margin:.6rem 0}.scroll>table{margin:0}
p,li,dt,dd,td,th,h1,h2,h3{overflow-wrap:break-word}code,a{overflow-wrap:anywhere}.fields code{overflow-wrap:normal}img,svg{max-width:100%}img{height:auto}
.try{position:relative}.try pre{padding-right:4.5rem}.copy{position:absolute;top:.4rem;right:.4rem;font-size:.8rem}
.glossary dt{font-weight:600;margin-top:.7rem}.glossary dd{margin:0 0 0 1.5rem}.toc li{margin:.1rem 0}
`;

/** A page's own additions: its CSS (static text of the page's module, never request data: the page policy allows it by hash). */
export interface PageExtras {
  style?: string;
}

export function layout(title: string, body: Html, extras: PageExtras = {}): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · ${SERVICE_NAME}</title>${inlineStyle(STYLE + (extras.style ?? ""))}</head>
<body><header><nav><a href="/"><strong>${SERVICE_NAME}</strong></a><a href="/endpoints">Endpoints</a><a href="/spec">Specification</a><a href="/openapi.json">OpenAPI</a></nav></header>
<main>${body}</main>
<footer class="muted"><p>Signals are provenance, not endorsement: ${SERVICE_NAME} reports what its probes observed.</p></footer>
</body></html>`;
}

export const json = (value: unknown) => html`<pre><code>${JSON.stringify(value, null, 2)}</code></pre>`;
