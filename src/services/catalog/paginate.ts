import { createHash } from "node:crypto";
import { pageUrl, parseBazaarPage } from "./bazaar-page.js";
import { fetchPage, PageFetchError } from "./fetch-page.js";
import type { IngestOptions } from "./types.js";

export interface PaginationOutcome {
  /** Every page arrived, parsed, and the offsets reached `total` consistently. */
  complete: boolean;
  pages: number;
  total: number | null;
  /** Why the poll is not complete; null when it is. */
  error: string | null;
}

export type PageHandler = (items: unknown[], x402Version: number) => Promise<void>;

type PaginateOptions = Pick<IngestOptions, "pageLimit" | "maxPages" | "requestTimeoutMs" | "pollBudgetMs" | "maxPageBytes">;
type Fetched = { ok: true; body: unknown } | { ok: false; error: string };

// A page is "the same page" when it lists the same resources in the same order.
function fingerprint(items: unknown[]): string {
  const ids = items.map((i) => (i !== null && typeof i === "object" && "resource" in i ? (i as { resource: unknown }).resource : i));
  return createHash("sha256").update(JSON.stringify(ids)).digest("hex");
}

/**
 * Walks a source's pages by offset, handing each good page's items to `onPage` while the next
 * page is already being fetched. Anything that stops the walk short of `total` (an error,
 * garbage, an offset the server did not honour, a page seen before, a total that moves, an
 * empty page, the page cap, the time budget) ends it incomplete, and an incomplete poll must
 * not deactivate anything.
 */
export async function paginate(source: string, opts: PaginateOptions, onPage: PageHandler, signal?: AbortSignal): Promise<PaginationOutcome> {
  const deadline = performance.now() + opts.pollBudgetMs;
  const fetchAt = (offset: number): Promise<Fetched> => {
    const remaining = Math.floor(deadline - performance.now());
    if (remaining <= 0) return Promise.resolve({ ok: false, error: `poll budget of ${opts.pollBudgetMs} ms exceeded` });
    const timeoutMs = Math.min(opts.requestTimeoutMs, remaining);
    // A 429 is asked again within the budget (fetch-page.ts); what still fails ends the poll partial.
    return fetchPage(pageUrl(source, opts.pageLimit, offset), { timeoutMs, maxBytes: opts.maxPageBytes, signal, deadline }).then(
      (body) => ({ ok: true, body }),
      (err: unknown) => ({ ok: false, error: err instanceof PageFetchError ? err.message : String(err) }),
    );
  };
  const seen = new Set<string>();
  let offset = 0;
  let total: number | null = null;
  let pages = 0;
  const stop = (why: string): PaginationOutcome => ({ complete: false, pages, total, error: `page ${pages + 1} (offset ${offset}): ${why}` });

  let next = fetchAt(0);
  for (;;) {
    const fetched = await next;
    if (!fetched.ok) return stop(fetched.error);
    const parsed = parseBazaarPage(fetched.body);
    if (!parsed.ok) return stop(parsed.reason);
    const { items, pagination, x402Version } = parsed.page;
    if (pagination.offset !== offset) return stop(`asked for offset ${offset}, the page says ${pagination.offset}`);
    if (total !== null && pagination.total !== total) return stop(`total changed from ${total} to ${pagination.total} during the poll`);
    total = pagination.total;
    if (offset + items.length > total) return stop(`${items.length} items run past the total of ${total}`);
    if (items.length > 0) {
      const fp = fingerprint(items);
      if (seen.has(fp)) return stop("the page repeats an earlier page (pagination loop)");
      seen.add(fp);
    }
    const nextOffset = offset + items.length;
    const more = nextOffset < total && items.length > 0 && pages + 1 < opts.maxPages;
    if (more) next = fetchAt(nextOffset);
    await onPage(items, x402Version);
    pages++;
    offset = nextOffset;
    if (offset === total) return { complete: true, pages, total, error: null };
    if (items.length === 0)
      return { complete: false, pages, total, error: `page ${pages} (offset ${offset}): empty page before the total of ${total} (truncated)` };
    if (!more) return stop(`more than ${opts.maxPages} pages`);
  }
}
