import { html } from "hono/html";
import { TIMELINE_DAYS, type ProviderIncident, type ProviderTimeline } from "../../services/index.js";
import type { Html } from "../pages/layout.js";
import { timeAt } from "../pages/time-words.js";
import { endpointHref } from "./list-links.js";

const codes = (reasons: readonly string[]) => reasons.map((r, i) => html`${i ? " " : ""}<code>${r}</code>`);

/** What happened, in words: the reasons a flag came with, gained, lost, or held until it cleared. */
function change(i: ProviderIncident): Html {
  if (i.kind === "flagged") return html`<strong>flagged</strong>: ${codes(i.reasons)}`;
  if (i.kind === "cleared") return html`<strong>no longer flagged</strong> (was ${codes(i.removed)})`;
  const parts = [i.added.length ? html`gained ${codes(i.added)}` : "", i.removed.length ? html`lost ${codes(i.removed)}` : ""].filter(Boolean);
  return html`<strong>reasons changed</strong>: ${parts.map((p, n) => html`${n ? "; " : ""}${p}`)}`;
}

/** When: the moment the recorder first saw a flag, else the UTC day (all a daily record knows). */
const when = (i: ProviderIncident, now: Date) => (i.at ? timeAt(i.at, now) : html`<time datetime="${i.day}">${i.day}</time> (UTC day)`);

/** The provider page's incident timeline: its endpoints' delist flag changes, newest first. */
export function timelineSection(t: ProviderTimeline, now: Date): Html {
  const rows = t.incidents.map(
    (i) =>
      html`<tr class="${i.kind}" data-listing="${i.listingId}"><td>${when(i, now)}</td><td><a class="url" href="${endpointHref(i.listingId)}">${i.method} ${i.url}</a></td><td>${change(i)}</td></tr>`,
  );
  const more = t.total > t.incidents.length ? html`<p class="muted">The newest ${t.incidents.length} of ${t.total} changes.</p>` : "";
  return html`<section id="incidents"><h2>Incidents, last ${TIMELINE_DAYS} days</h2>
<p class="muted">Its endpoints' delist flags (dead, blacklisted or ghost listings, as the <a href="/api/v1/delist-feed">delist feed</a> reports them) changing since ${t.from} (UTC), newest first.</p>
${
  t.incidents.length === 0
    ? html`<p id="no-incidents">No endpoint of this provider was flagged or cleared in the last ${TIMELINE_DAYS} days.</p>`
    : html`<div class="table-wrap" tabindex="0"><table id="timeline"><thead><tr><th scope="col">when</th><th scope="col">endpoint</th><th scope="col">change</th></tr></thead><tbody>${rows}</tbody></table></div>${more}`
}</section>`;
}
