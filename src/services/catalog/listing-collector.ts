import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { isTransient } from "../../lib/transient-errors.js";
import { tryNormalizeHttpUrl } from "../../lib/url-normalize.js";
import { UPSERT_BATCH_SIZE } from "./constants.js";
import { parseListing } from "./parse-listing.js";
import { upsertGroups } from "./upsert-groups.js";
import { upsertListings } from "./upsert-listings.js";
import type { ParsedListing } from "./types.js";
import type { CatalogSource } from "./source-spec.js";

const MAX_EXAMPLES = 5;

/**
 * Takes a poll's items page by page, keeps the first sighting of each (url, method), and
 * writes them in batches as they come, so a catalog of any size streams through in bounded
 * memory. One batch is written while the next is parsed (the database works in parallel with
 * this process). Malformed items are counted, with a few examples for the log, never fatal.
 */
export class ListingCollector {
  /**
   * `unattributable`: malformed items that do not even name a readable http(s) resource;
   * `garbagePages`: pages where such items are at least half of the page (decision 0038).
   */
  readonly counts = { seen: 0, valid: 0, malformed: 0, unattributable: 0, garbagePages: 0, inserted: 0, reactivated: 0, updated: 0 };
  readonly malformedExamples: string[] = [];
  /** Normalised URLs named by malformed items: their listings must not be taken for gone. */
  readonly malformedUrls = new Set<string>();
  private readonly keys = new Set<string>();
  private readonly groupsDone = new Set<string>();
  private pending: ParsedListing[] = [];
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly source: CatalogSource,
    private readonly seenAt: Date,
    /** False for a source past its grace: its sightings bring nothing back until a poll completes. */
    private readonly relist = true,
  ) {}

  async add(items: readonly unknown[], x402Version: number): Promise<void> {
    const unattributableBefore = this.counts.unattributable;
    for (const item of items) {
      this.counts.seen++;
      const parsed = parseListing(item, x402Version);
      if (!parsed.ok) {
        if (parsed.skipped) continue;
        this.counts.malformed++;
        const url = resourceUrlOf(item);
        if (url) this.malformedUrls.add(url);
        else this.counts.unattributable++;
        if (this.malformedExamples.length < MAX_EXAMPLES) this.malformedExamples.push(`item ${this.counts.seen}: ${parsed.reason}`);
        continue;
      }
      const key = `${parsed.listing.method} ${parsed.listing.urlNormalized}`;
      if (this.keys.has(key)) continue;
      this.keys.add(key);
      this.counts.valid++;
      this.pending.push(parsed.listing);
      if (this.pending.length >= UPSERT_BATCH_SIZE) await this.startWrite();
    }
    // A page mostly of unreadable items is a broken page (or a new format), not a few bad items.
    const garbage = this.counts.unattributable - unattributableBefore;
    if (garbage > 0 && 2 * garbage >= items.length) this.counts.garbagePages++;
  }

  /** Writes what is pending and waits for every write; throws the first write error. */
  async flush(): Promise<void> {
    await this.startWrite();
    await this.writing;
  }

  // At most one write in flight: wait for the previous one, then start this one unawaited.
  private async startWrite(): Promise<void> {
    await this.writing;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.writing = this.write(batch);
    // A failure surfaces at the next await of `writing`; until then it must not count as unhandled.
    this.writing.catch(() => undefined);
  }

  /**
   * Writes a batch; when the database refuses it for its data (not because it is down), the
   * batch is halved until the refused listings are found, and those count as malformed.
   */
  private async write(batch: ParsedListing[]): Promise<void> {
    try {
      await upsertGroups(this.db, batch, this.seenAt, this.groupsDone);
      const c = await upsertListings(this.db, batch, this.source, this.seenAt, this.relist);
      this.counts.inserted += c.inserted;
      this.counts.reactivated += c.reactivated;
      this.counts.updated += c.updated;
    } catch (err) {
      if (isTransient(err)) throw err;
      if (batch.length === 1) {
        this.counts.valid--;
        this.counts.malformed++;
        this.malformedUrls.add(batch[0]!.urlNormalized);
        if (this.malformedExamples.length < MAX_EXAMPLES) this.malformedExamples.push(`${batch[0]!.url}: refused by the database: ${(err as Error).message}`);
        return;
      }
      // Groups written before the failure stay marked; the ones that failed must be retried.
      for (const l of batch) {
        this.groupsDone.delete(`s:${l.serviceId}`);
        this.groupsDone.delete(`p:${l.provider.id}`);
      }
      const half = Math.ceil(batch.length / 2);
      await this.write(batch.slice(0, half));
      await this.write(batch.slice(half));
    }
  }
}

/** The normalised http(s) URL a malformed item still names, if any. */
function resourceUrlOf(item: unknown): string | undefined {
  const resource = item !== null && typeof item === "object" ? (item as { resource?: unknown }).resource : undefined;
  return typeof resource === "string" ? tryNormalizeHttpUrl(resource) : undefined;
}
