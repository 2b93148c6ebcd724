import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema.js";
import type { Clock } from "../../../lib/clock.js";
import { insertNewProbes, type ProbeRecord, rollupAdded } from "../../evidence/index.js";
import { ListingIds } from "./listing-ids.js";
import { parseProbeLine, type ProbeLine } from "./probe-line.js";

const BATCH = 500;

export interface BadLine {
  line: number;
  reason: string;
}

export interface ImportReport {
  lines: number;
  /** Probes written (and added to the hourly rollups). */
  imported: number;
  /** Good lines whose probe (same listing, same instant) was already stored. */
  alreadyPresent: number;
  badLines: number;
  /** The first bad lines by line number, at most `maxReported`. */
  bad: BadLine[];
  /** false when bad lines made the import roll back (nothing was written). */
  committed: boolean;
}

export interface ImportOptions {
  /** Import the good lines even when some are bad (default: all or nothing). */
  skipBad?: boolean;
  maxReported?: number;
  onProgress?: (progress: { bytes: number; lines: number }) => void;
}

class Rollback extends Error {}

/**
 * Imports a probe history (NDJSON, one probe a line) in one transaction: every line is
 * validated and matched to a listing by normalised url and method; good lines are inserted in
 * batches and added to probe_hourly (rollupAdded). Any bad line rolls everything back unless skipBad.
 */
export async function importProbes(db: Kysely<Database>, clock: Clock, input: Readable, opts: ImportOptions = {}): Promise<ImportReport> {
  const maxReported = opts.maxReported ?? 20;
  const report: ImportReport = { lines: 0, imported: 0, alreadyPresent: 0, badLines: 0, bad: [], committed: false };
  const addBad = (line: number, reason: string) => {
    report.badLines++;
    report.bad.push({ line, reason });
    if (report.bad.length > maxReported) report.bad = report.bad.sort((a, b) => a.line - b.line).slice(0, maxReported);
  };
  try {
    await db.transaction().execute(async (trx) => {
      const ids = new ListingIds(trx);
      let pending: Array<{ n: number; line: ProbeLine }> = [];
      const flush = async () => {
        const resolved = await ids.resolve(pending.map((p) => p.line));
        const rows: ProbeRecord[] = [];
        for (const { n, line } of pending) {
          const listingId = resolved.get(ListingIds.key(line.urlNormalized, line.method));
          if (listingId == null) addBad(n, `unknown listing (${line.method} ${line.url})`);
          else rows.push({ listingId, ...line.probe });
        }
        pending = [];
        // Once the import is bound to roll back, only validation is worth doing.
        if (report.badLines > 0 && !opts.skipBad) return;
        const inserted = await insertNewProbes(trx, rows);
        await rollupAdded(trx, inserted);
        report.imported += inserted.length;
        report.alreadyPresent += rows.length - inserted.length;
      };
      let bytes = 0;
      const now = clock.now();
      for await (const text of createInterface({ input, crlfDelay: Infinity })) {
        report.lines++;
        bytes += Buffer.byteLength(text) + 1;
        opts.onProgress?.({ bytes, lines: report.lines });
        if (text.trim() === "") continue;
        const parsed = parseProbeLine(text, now);
        if (!parsed.ok) addBad(report.lines, parsed.reason);
        else pending.push({ n: report.lines, line: parsed.line });
        if (pending.length >= BATCH) await flush();
      }
      if (pending.length > 0) await flush();
      if (report.badLines > 0 && !opts.skipBad) throw new Rollback();
    });
    report.committed = true;
  } catch (err) {
    if (!(err instanceof Rollback)) throw err;
    report.imported = 0;
    report.alreadyPresent = 0;
  }
  report.bad.sort((a, b) => a.line - b.line);
  return report;
}
