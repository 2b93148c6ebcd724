import { html } from "hono/html";
import type { ListQuery, ServicePage } from "../../services/index.js";
import { layout, type Html } from "../pages/layout.js";
import { serviceHref } from "./list-links.js";
import { LIST_STYLE, listTable } from "./list-table.js";
import { totalsBlock } from "./totals-block.js";

/** GET /services/{id}: a service as the catalogs name it and every endpoint it lists. */
export function servicePage(q: ListQuery, s: ServicePage): Html {
  return layout(
    `${s.service.name}: service`,
    html`<h1>${s.service.name}</h1>
<p class="muted">Service${s.service.origin ? html` at <code>${s.service.origin}</code>` : ""}: the endpoints the catalogs list under this name.</p>
${totalsBlock(s.totals, serviceHref(s.service.id))}
<h2>Endpoints</h2>
${listTable(serviceHref(s.service.id), q, s.list)}`,
    { style: LIST_STYLE },
  );
}
