import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { line, type CliIo } from "./cli-io.js";
import { withServices } from "./cli-services.js";
import { ProgressBar } from "./progress-bar.js";

const MAX_PRINTED = 20;

/** `probes import <file>`: exit 0 when everything was imported, 1 otherwise. */
export async function probesImport(io: CliIo, file: string, skipBad: boolean): Promise<number> {
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new Error("not a regular file");
    size = info.size;
  } catch (err) {
    line(io.stderr, `cannot read ${file}: ${(err as Error).message}`);
    return 1;
  }
  return withServices(io, async (services) => {
    const bar = new ProgressBar(io.stderr, size);
    const report = await services.catalog.importProbes(createReadStream(file), {
      skipBad,
      maxReported: MAX_PRINTED,
      onProgress: (p) => bar.update(p.bytes, p.lines),
    });
    bar.update(size, report.lines, true);
    bar.done();
    for (const b of report.bad) line(io.stderr, `line ${b.line}: ${b.reason}`);
    if (report.badLines > report.bad.length) line(io.stderr, `... and ${report.badLines - report.bad.length} more bad lines`);
    if (!report.committed) {
      line(io.stderr, `${report.badLines} bad line(s) of ${report.lines}: nothing imported (fix them, or pass --skip-bad to import the good lines)`);
      return 1;
    }
    line(
      io.stdout,
      `imported ${report.imported} probe(s) from ${report.lines} line(s); ${report.alreadyPresent} already present; ${report.badLines} bad line(s) skipped`,
    );
    return report.badLines > 0 ? 1 : 0;
  });
}
