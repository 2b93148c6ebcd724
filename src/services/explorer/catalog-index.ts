import { toMicros } from "../../lib/money.js";
import type { ExplorerRow, SortKey, Totals } from "./types.js";

export type Predicate = (row: ExplorerRow, i: number) => boolean;

const KEY: Record<Exclude<SortKey, "listed">, (r: ExplorerRow) => number | null> = {
  uptime: (r) => r.uptime7dPct,
  latency: (r) => r.p50LatencyMs,
  latency_avg: (r) => r.avgLatencyMs,
  price: (r) => (r.priceUsdc === null ? null : Number(r.priceUsdc)),
  volume: (r) => r.volumeUsdc30d,
};

/**
 * One verdict generation's active listings in memory: a page scans them in the asked order
 * (each order sorted once, on first use), counting every match and keeping one page of them.
 * A scan of 100,000 rows takes milliseconds; the same filter in SQL on PGlite does not. The
 * whole list unfiltered is a slice of the order.
 */
export class CatalogIndex {
  /** Lower-cased "url service provider" of every row, each ended by a NUL, and where each row starts in it. */
  private readonly text: string;
  private readonly starts: Int32Array;
  /** Micro-USDC per row (NaN: no price), for the price range. */
  readonly micros: Float64Array;
  readonly categories: string[];
  readonly networks: string[];
  private readonly orders = new Map<string, Int32Array>();

  constructor(readonly rows: readonly ExplorerRow[]) {
    const texts = rows.map((r) => `${r.url}\n${r.service}\n${r.provider ?? ""}\0`.toLowerCase());
    this.starts = new Int32Array(rows.length + 1);
    texts.forEach((t, i) => (this.starts[i + 1] = this.starts[i]! + t.length));
    this.text = texts.join("");
    this.micros = Float64Array.from(rows, (r) => {
      const m = r.priceUsdc === null ? null : toMicros(r.priceUsdc);
      return m === null ? NaN : Number(m);
    });
    const distinct = (pick: (r: ExplorerRow) => string | null) => [...new Set(rows.map(pick).filter((v): v is string => v !== null))].sort();
    this.categories = distinct((r) => r.category);
    this.networks = distinct((r) => r.network);
  }

  /**
   * The rows whose text holds `needle` (lower case, no NUL), marked 1: one native indexOf over
   * the joined text jumps from match to match, much faster than a test per row.
   */
  search(needle: string): Uint8Array {
    const marks = new Uint8Array(this.rows.length);
    for (let at = this.text.indexOf(needle); at !== -1;) {
      let lo = 0,
        hi = this.rows.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.starts[mid]! <= at) lo = mid;
        else hi = mid - 1;
      }
      marks[lo] = 1;
      at = this.text.indexOf(needle, this.starts[lo + 1]!);
    }
    return marks;
  }

  /** The matches' count and the rows from `offset` up to `limit` of them, in the asked order (ties by id). */
  select(match: Predicate | null, sort: SortKey, dir: "asc" | "desc", offset: number, limit: number): { total: number; rows: ExplorerRow[] } {
    const order = this.order(sort, dir);
    if (!match) return { total: order.length, rows: Array.from(order.subarray(offset, offset + limit), (i) => this.rows[i]!) };
    const picked: ExplorerRow[] = [];
    let total = 0;
    for (let k = 0; k < order.length; k++) {
      const i = order[k]!;
      const row = this.rows[i]!;
      if (!match(row, i)) continue;
      if (total >= offset && picked.length < limit) picked.push(row);
      total++;
    }
    return { total, rows: picked };
  }

  /** Count, flagged count per warning code, and mean 7-day uptime of the matching rows. */
  totals(match: Predicate | null): Totals {
    const t = { endpoints: 0, flagged: 0, sum: 0, measured: 0 };
    const flaggedBy: Record<string, number> = {};
    this.rows.forEach((r, i) => {
      if (match && !match(r, i)) return;
      t.endpoints++;
      if (r.ok === false) {
        t.flagged++;
        for (const w of r.warnings) flaggedBy[w] = (flaggedBy[w] ?? 0) + 1;
      }
      if (r.uptime7dPct === null) return;
      t.sum += r.uptime7dPct;
      t.measured++;
    });
    const avgUptime7dPct = t.measured ? Math.round((t.sum / t.measured) * 10) / 10 : null;
    return { endpoints: t.endpoints, flagged: t.flagged, flaggedBy, avgUptime7dPct };
  }

  private order(sort: SortKey, dir: "asc" | "desc"): Int32Array {
    const name = `${sort}:${dir}`;
    const known = this.orders.get(name);
    if (known) return known;
    const ids = Int32Array.from(this.rows.keys());
    const sign = dir === "asc" ? 1 : -1;
    if (sort === "listed") {
      if (dir === "desc") ids.reverse(); // rows are in id order
    } else {
      const values = Float64Array.from(this.rows, (r) => KEY[sort](r) ?? NaN);
      // Endpoints without the figure go last either way; equal values keep id order.
      ids.sort((a, b) => {
        const va = values[a]!,
          vb = values[b]!;
        if (Number.isNaN(va) || Number.isNaN(vb)) return Number.isNaN(va) === Number.isNaN(vb) ? a - b : Number.isNaN(va) ? 1 : -1;
        return va === vb ? a - b : (va - vb) * sign;
      });
    }
    this.orders.set(name, ids);
    return ids;
  }
}
