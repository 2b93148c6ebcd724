import { sql } from "kysely";
import type { DbHandle } from "../../src/db/client.js";
import { confidenceOf, verdictFrom } from "../../src/services/signals/engine.js";

/** The stored verdict of every active listing at one moment (what the blacklist, alternatives and watches read). */
export interface VerdictSample {
  at: number;
  warnings: Map<string, string[]>;
}

export async function sampleVerdicts(db: DbHandle): Promise<VerdictSample> {
  const at = Date.now();
  const { rows } = await sql<{ url: string; warnings: string[] | null }>`
    select l.url, s.warnings from listings l join signal_snapshots s on s.listing_id = l.id where l.is_active`.execute(db.db);
  return { at, warnings: new Map(rows.map((r) => [r.url, r.warnings ?? []])) };
}

/** Preflight, forensics and the stored verdict's action for one URL at one moment. */
export interface Agreement {
  url: string;
  /** When the stored verdict was first read for it. */
  at: number;
  preflight: string;
  forensics: string;
  stored: string;
}

async function storedRows(db: DbHandle, urls: string[]) {
  const { rows } = await sql<{ url: string; warnings: string[] | null; probes_1h: number; computed_at: Date }>`
    select l.url, s.warnings, s.probes_1h, s.computed_at from listings l join signal_snapshots s on s.listing_id = l.id
    where l.url = any(${urls}::text[]) and l.is_active`.execute(db.db);
  return new Map(rows.map((r) => [r.url, r]));
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<string | null> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  if (res.status !== 200) return null;
  return ((await res.json()) as { recommended_action: string }).recommended_action;
}

/**
 * For each URL: the stored verdict read, then preflight and forensics asked at once, then the
 * stored verdict read again. A URL whose snapshot was rewritten meanwhile is left out (in flux):
 * the three answers describe the same evidence only when it stood still.
 */
export async function sampleAgreement(
  db: DbHandle,
  baseUrl: string,
  creditId: string,
  urls: string[],
): Promise<{ agreements: Agreement[]; inFlux: number; failed: number }> {
  const at = Date.now();
  const before = await storedRows(db, urls);
  const answers = new Map<string, [string | null, string | null]>();
  const queue = urls.filter((u) => before.has(u));
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let u = queue.shift(); u !== undefined; u = queue.shift()) {
        const url = u;
        answers.set(
          url,
          await Promise.all([post(`${baseUrl}/api/v1/preflight`, { url }, { "x-credit-id": creditId }), post(`${baseUrl}/bench/forensics`, { url })]),
        );
      }
    }),
  );
  const after = await storedRows(db, urls);
  const agreements: Agreement[] = [];
  let inFlux = 0;
  let failed = 0;
  for (const [url, [preflight, forensics]] of answers) {
    const b = before.get(url)!;
    const a = after.get(url);
    if (!a || a.computed_at.getTime() !== b.computed_at.getTime() || a.probes_1h !== b.probes_1h) inFlux++;
    else if (preflight === null || forensics === null) failed++;
    else
      agreements.push({
        url,
        at,
        preflight,
        forensics,
        stored: verdictFrom(b.warnings ?? [], true, confidenceOf(b.probes_1h), "forensics").recommended_action,
      });
  }
  return { agreements, inFlux, failed };
}
