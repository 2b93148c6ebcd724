import type { Dispatcher } from "undici";
import { MANIFEST_MAX_BYTES, MANIFEST_PATHS, MANIFEST_TIMEOUT_MS } from "./constants.js";
import { fetchPage, PageFetchError } from "./fetch-page.js";
import { challengeItems } from "./manifest-challenges.js";
import { manifestResources } from "./manifest-items.js";
import type { PageHandler, PaginationOutcome } from "./paginate.js";

/** Statuses that say "no such document here": the origin publishes none, which is an answer. */
const ABSENT = new Set([404, 410]);

/**
 * Reads an origin's manifests (`/.well-known/x402`, `/openapi.json`) as the pages of one poll,
 * through the SSRF-guarded `dispatcher`; resources named without terms are read from their 402. The poll is complete when every document either came
 * or is plainly absent (404, 410); anything else (network error, 5xx, 402, not JSON) leaves it
 * incomplete, so a manifest that cannot be read takes nothing away.
 */
export function manifestWalk(origin: string, dispatcher: Dispatcher, budgetMs: number) {
  return async (onPage: PageHandler, signal?: AbortSignal): Promise<PaginationOutcome> => {
    const deadline = performance.now() + budgetMs;
    let pages = 0;
    const errors: string[] = [];
    for (const path of MANIFEST_PATHS) {
      try {
        const doc = await fetchPage(`${origin}${path}`, { timeoutMs: MANIFEST_TIMEOUT_MS, maxBytes: MANIFEST_MAX_BYTES, signal, deadline, dispatcher });
        const resources = manifestResources(doc, origin);
        const stated = resources.flatMap((r) => (r.item ? [r.item] : []));
        await onPage([...stated, ...(await challengeItems(resources, dispatcher, signal))], 2);
        pages++;
      } catch (err) {
        if (!(err instanceof PageFetchError)) throw err;
        if (err.status !== undefined && ABSENT.has(err.status)) continue;
        errors.push(`${path}: ${err.message}`);
      }
    }
    return { complete: errors.length === 0, pages, total: null, error: errors.length === 0 ? null : errors.join("; ") };
  };
}
