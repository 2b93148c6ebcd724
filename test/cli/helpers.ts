import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { CliIo } from "../../src/cli/commands/cli-io.js";
import type { DbHandle } from "../../src/db/client.js";
import type { Clock } from "../../src/lib/clock.js";
import { parseListing } from "../../src/services/catalog/parse-listing.js";
import { upsertGroups } from "../../src/services/catalog/upsert-groups.js";
import { upsertListings } from "../../src/services/catalog/upsert-listings.js";
import { v2Item, type ItemSpec } from "../catalog/helpers/items.js";

export class Capture extends Writable {
  text = "";
  isTTY = false;
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

export interface TestIo extends CliIo {
  stdout: Capture;
  stderr: Capture;
}

/** CLI io on a test database; the command's close() leaves the shared test database open. */
export function testIo(db: DbHandle, clock: Clock, tty = false): TestIo {
  const stderr = new Capture();
  stderr.isTTY = tty;
  return { stdout: new Capture(), stderr, clock, openDb: async () => ({ ...db, close: async () => undefined }) };
}

/** Listings as the ingester would store them. */
export async function seedListings(db: DbHandle, at: Date, specs: ItemSpec[]): Promise<void> {
  const listings = specs.map((s) => {
    const r = parseListing(v2Item(s), 2);
    if (!r.ok) throw new Error(r.reason);
    return r.listing;
  });
  await upsertGroups(db.db, listings, at, new Set());
  await upsertListings(db.db, listings, "https://catalog.example.com/discovery", at);
}

export function tempDir(): { dir: string; file: (name: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "lookout-cli-"));
  return { dir, file: (name) => join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
