import { PREFLIGHT_CODES } from "@x402-lookout/contracts/codes";
import type { EndpointIdentity } from "../endpoint-history/types.js";

/** The explorer's list shape (issue 26): 50 rows a page, at most MAX_PAGE pages deep, so no page walks the catalog wholesale. */
export const EXPLORER = {
  pageSize: 50,
  maxPage: 20,
  /** Longest search text and category or network name accepted. */
  maxText: 100,
  sparkDays: 7,
} as const;

export const SORT_KEYS = ["listed", "uptime", "latency", "latency_avg", "price", "volume"] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** A preflight action, or `unjudged` for a listing no verdict pass has reached yet. */
export const VERDICTS = ["pay", "investigate", "use_alternatives", "skip", "unjudged"] as const;
export type VerdictFilter = (typeof VERDICTS)[number];

/** Rows show the preflight view, so the warnings a list filters by are the preflight codes. */
export const LIST_WARNINGS = PREFLIGHT_CODES;

export interface ListQuery {
  /** Case-insensitive substring of the URL, service name or provider name. */
  q?: string;
  verdict?: VerdictFilter;
  warning?: string;
  category?: string;
  network?: string;
  /** USDC decimals, both ends inclusive. */
  minPrice?: string;
  maxPrice?: string;
  sort: SortKey;
  dir: "asc" | "desc";
  page: number;
}

/** One endpoint as the list shows it: the listing, its stored preflight view and its 7-day figures. */
export interface ExplorerRow extends Omit<EndpointIdentity, "isActive" | "firstSeenAt"> {
  /** null: not judged yet. */
  action: string | null;
  ok: boolean | null;
  warnings: readonly string[];
  uptime7dPct: number | null;
  p50LatencyMs: number | null;
  avgLatencyMs: number | null;
  /** Settled calls and USDC paid over 30 days as the chain shows them (decision 0052); null: not indexed. */
  settledCalls30d: number | null;
  volumeUsdc30d: number | null;
}

/** Share of healthy probes per day, oldest first; null for a day without probes. */
export type Sparkline = (number | null)[];

export interface ListPage {
  rows: (ExplorerRow & { sparkline: Sparkline })[];
  total: number;
  page: number;
  /** Pages that can be shown: the last page of `total`, capped at EXPLORER.maxPage. */
  pages: number;
  /** The values the filters can take in this catalog. */
  facets: { categories: string[]; networks: string[] };
}

/** Flagged as the landing page counts it (src/services/overview): the stored preflight view is not ok. */
export interface Totals {
  endpoints: number;
  flagged: number;
  /** The flagged endpoints per warning code of their preflight view. */
  flaggedBy: Record<string, number>;
  /** Mean 7-day uptime of the endpoints that have one, one decimal; null when none has. */
  avgUptime7dPct: number | null;
}
