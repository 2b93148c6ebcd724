import { COLUMNS } from "./columns.js";
import { DATASET } from "./constants.js";

export interface BuildInfo {
  period: string;
  periodStart: Date;
  periodEnd: Date;
  rows: number;
  base: string;
  serviceName: string;
}

const L = DATASET.license;

export const attributionLine = (b: BuildInfo) =>
  `"${b.serviceName} endpoint dataset, ${b.period}" by ${b.serviceName} (${b.base}/dataset), licensed under ${L.id} (${L.url}).`;

/** README.md of a build: what it is, the schema of every column, how to cite it. */
export function readme(b: BuildInfo): string {
  return `# ${b.serviceName} endpoint dataset, ${b.period}

Per-endpoint aggregates of continuous probes of x402-payable HTTP endpoints listed in public
catalogs, as computed by ${b.serviceName} (${b.base}). One row per active catalog listing.

- Evidence window: ${b.periodStart.toISOString()} to ${b.periodEnd.toISOString()} (7 days).
- Rows: ${b.rows}.
- Files: \`endpoints.csv\` (RFC 4180, UTF-8, header row; list columns joined with \`;\`; empty = null)
  and \`endpoints.jsonl\` (one JSON object per line; lists are arrays; null = no data).
- Aggregates only: the raw probe-by-probe time series is not published.
- Text fields (URLs, service names) are copied verbatim from third-party catalogs.
- Definitions of warnings and thresholds: ${b.base}/spec.

## Columns

| column | type | meaning |
|---|---|---|
${COLUMNS.map((c) => `| ${c.name} | ${c.type} | ${c.description} |`).join("\n")}

## Licence

${L.name} (${L.id}), ${L.url}. See LICENSE.

Attribution: ${attributionLine(b)}

The data reports what ${b.serviceName}'s probes observed. It is provenance, not an endorsement of
any merchant and not a trust guarantee.
`;
}

/** LICENSE of a build: the licence, its canonical address and the attribution to give. */
export function license(b: BuildInfo): string {
  return `${b.serviceName} endpoint dataset, ${b.period}
Copyright ${b.periodEnd.getUTCFullYear()} ${b.serviceName} (${b.base})

This dataset is licensed under the ${L.name} licence (${L.id}).
Canonical address: ${L.url}
Legal code: ${L.legalCode}

You are free to share (copy and redistribute the material in any medium or format) and to adapt
(remix, transform and build upon the material) for any purpose, even commercially, under these
terms:

- Attribution: you must give appropriate credit, provide a link to the licence, and indicate if
  changes were made. You may do so in any reasonable manner, but not in any way that suggests
  the licensor endorses you or your use.
- No additional restrictions: you may not apply legal terms or technological measures that
  legally restrict others from doing anything the licence permits.

This summary is not a substitute for the licence; the legal code at the address above governs.

Attribution line to use:
${attributionLine(b)}
`;
}
