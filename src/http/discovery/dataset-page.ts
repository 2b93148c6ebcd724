import { html } from "hono/html";
import { DATASET } from "../../services/index.js";
import { COLUMNS, type DatasetEvidence, type PublishedDataset } from "../../services/index.js";
import { SERVICE_NAME } from "../attribution.js";
import { layout, type Html } from "../pages/layout.js";
import { exactTime, timeAt } from "../pages/time-words.js";

export const datasetFileUrl = (base: string, id: number, name: string) => `${base}/dataset/${id}/${encodeURIComponent(name)}`;

export function humanBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** What the evidence held says, in one sentence, and when the next build comes. */
function evidenceLine(e: DatasetEvidence, now: Date): Html {
  const held = e.since
    ? html`Evidence held: <span id="evidence-hours">${e.hours}</span> hour(s) of probes (since ${timeAt(e.since, now)}), ${e.probes7d} probe(s) of ${e.endpoints} endpoint(s) in the last 7 days.`
    : html`Evidence held: none yet (no endpoint has been probed).`;
  const next = !e.nextBuildAt
    ? html`The first build comes once ${e.minHours} hour(s) of probes exist.`
    : e.newestBuildAt
      ? html`Next build: at about <span id="next-build">${timeAt(e.nextBuildAt, now)}</span> (weekly).`
      : html`The first build waits for ${e.minHours} hour(s) of evidence: at about <span id="next-build">${timeAt(e.nextBuildAt, now)}</span>.`;
  return html`<p id="evidence">${held} ${next}</p>`;
}

/** /dataset: every published build with download links, sizes, dates and the licence. */
export function datasetPage(base: string, builds: readonly PublishedDataset[], evidence: DatasetEvidence, now: Date): Html {
  const L = DATASET.license;
  return layout(
    "Public dataset",
    html`<h1>Public dataset</h1>
<p>Per-endpoint aggregates of ${SERVICE_NAME}'s continuous probes of x402 endpoints: one row per active catalog listing with its price, 7-day probe counts and uptime, latency percentiles, warnings and delist reasons.
Built weekly, as CSV and JSON Lines, with a README describing every column. The raw probe-by-probe time series is not published.</p>
<p>Licence: <a href="${L.url}">${L.name} (${L.id})</a>. Credit ${SERVICE_NAME} (${base}/dataset) when you use it.</p>
<h2>Builds</h2>
${evidenceLine(evidence, now)}
${
  builds.length === 0
    ? html`<p class="muted" id="no-builds">No build has been published yet.</p>`
    : html`<div class="scroll" tabindex="0"><table id="builds"><thead><tr><th>build</th><th>evidence window</th><th>endpoints</th><th>files</th></tr></thead><tbody>
${builds.map(
  (
    b,
  ) => html`<tr><td>${b.period}<br><span class="muted">built ${timeAt(b.builtAt, now)}</span></td><td>${exactTime(b.periodStart)} to ${exactTime(b.periodEnd)}</td><td>${b.files.find((f) => f.rows !== null)?.rows ?? ""}</td>
<td><ul>${b.files.map((f) => html`<li><a href="${datasetFileUrl(base, b.id, f.name)}">${f.name}</a> · ${humanBytes(f.bytes)} (${f.bytes} bytes) · <span class="muted">sha256 <code>${f.sha256}</code></span></li>`)}</ul></td></tr>`,
)}
</tbody></table></div>`
}
<p>Machine-readable list: <a href="${base}/dataset/index.json">${base}/dataset/index.json</a>.</p>
<h2>Columns</h2>
<div class="scroll" tabindex="0"><table><thead><tr><th>column</th><th>type</th><th>meaning</th></tr></thead><tbody>
${COLUMNS.map((c) => html`<tr><td><code>${c.name}</code></td><td>${c.type}</td><td>${c.description}</td></tr>`)}
</tbody></table></div>`,
  );
}

export function datasetIndex(base: string, builds: readonly PublishedDataset[], e: DatasetEvidence) {
  return {
    license: DATASET.license,
    evidence: {
      since: iso(e.since),
      hours: e.hours,
      probes_7d: e.probes7d,
      endpoints: e.endpoints,
      min_hours_before_first_build: e.minHours,
      next_build_at: iso(e.nextBuildAt),
    },
    builds: builds.map((b) => ({
      id: b.id,
      period: b.period,
      period_start: b.periodStart.toISOString(),
      period_end: b.periodEnd.toISOString(),
      built_at: b.builtAt.toISOString(),
      files: b.files.map((f) => ({
        name: f.name,
        url: datasetFileUrl(base, b.id, f.name),
        bytes: f.bytes,
        sha256: f.sha256,
        rows: f.rows,
        content_type: f.contentType,
      })),
    })),
  };
}
