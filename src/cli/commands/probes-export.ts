import { createWriteStream } from "node:fs";
import { once } from "node:events";
import type { Writable } from "node:stream";
import { exportProbes } from "../../services/catalog/probe-history/export-probes.js";
import { line, type CliIo } from "./cli-io.js";

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, "drain");
}

/** `probes export [--out file] [--since ISO]`: NDJSON to the file or stdout, a count on stderr. */
export async function probesExport(io: CliIo, outFile: string | undefined, since: Date | undefined): Promise<number> {
  const out = outFile ? createWriteStream(outFile) : io.stdout;
  if (outFile) await once(out, "open");
  const handle = await io.openDb();
  let count = 0;
  try {
    for await (const record of exportProbes(handle.db, { since })) {
      await write(out, `${JSON.stringify(record)}\n`);
      count++;
    }
  } finally {
    await handle.close();
    if (outFile) {
      out.end();
      await once(out, "finish");
    }
  }
  line(io.stderr, `exported ${count} probe(s)${outFile ? ` to ${outFile}` : ""}`);
  return 0;
}
