import { parseArgs, USAGE, UsageError } from "./args.js";
import { line, type CliIo } from "./cli-io.js";
import { runDatasetCommand } from "./dataset.js";
import { runKeysCommand } from "./keys.js";
import { probesExport } from "./probes-export.js";
import { probesImport } from "./probes-import.js";

/** Runs one `lookout` command; returns the exit code (2 for usage errors). */
export async function runLookout(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv[0] === "dataset") return runDatasetCommand(argv.slice(1), io);
  if (argv[0] === "keys") return runKeysCommand(argv.slice(1), io);
  let command;
  try {
    command = parseArgs(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    line(io.stderr, `lookout: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  switch (command.kind) {
    case "help":
      line(io.stdout, USAGE);
      return 0;
    case "probes-import":
      return probesImport(io, command.file, command.skipBad);
    case "probes-export":
      return probesExport(io, command.out, command.since);
  }
}
