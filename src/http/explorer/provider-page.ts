import { html } from "hono/html";
import type { ListQuery, ProviderPage } from "../../services/index.js";
import { layout, type Html } from "../pages/layout.js";
import { providerHref } from "./list-links.js";
import { LIST_STYLE, listTable } from "./list-table.js";
import { timelineSection } from "./provider-timeline.js";
import { totalsBlock } from "./totals-block.js";

/** GET /providers/{id}: who is paid (the payTo and network), every endpoint paying them, and their incidents of the week. */
export function providerPage(q: ListQuery, p: ProviderPage): Html {
  const name = p.provider.name ?? p.provider.id;
  return layout(
    `${name}: provider`,
    html`<h1>${name}</h1>
<p class="muted">Provider: the endpoints that ask to be paid to <code>${p.provider.payTo}</code> on <code>${p.provider.network}</code>.</p>
${totalsBlock(p.totals, providerHref(p.provider.id))}
<h2>Endpoints</h2>
${listTable(providerHref(p.provider.id), q, p.list)}
${timelineSection(p.timeline, p.observedAt)}`,
    { style: LIST_STYLE },
  );
}
