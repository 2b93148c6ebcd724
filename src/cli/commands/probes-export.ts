import { createWriteStream } from "node:fs";
import { once } from "node:events";
import type { Writable } from "node:stream";
import { line, type CliIo } from "./cli-io.js";
import { withServices } from "./cli-services.js";

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, "drain");
}

/** `probes export [--out file] [--since ISO]`: NDJSON to the file or stdout, a count on stderr. */
export async function probesExport(io: CliIo, outFile: string | undefined, since: Date | undefined): Promise<number> {
  const out = outFile ? createWriteStream(outFile) : io.stdout;
  if (outFile) await once(out, "open");
  let count = 0;
  try {
    await withServices(io, async (services) => {
      for await (const record of services.catalog.exportProbes({ since })) {
        await write(out, `${JSON.stringify(record)}\n`);
        count++;
      }
    });
  } finally {
    if (outFile) {
      out.end();
      await once(out, "finish");
    }
  }
  line(io.stderr, `exported ${count} probe(s)${outFile ? ` to ${outFile}` : ""}`);
  return 0;
}
