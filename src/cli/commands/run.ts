import { parseArgs, PROBES_USAGE, UsageError } from "./args.js";
import { line, type CliIo } from "./cli-io.js";
import { DATASET_USAGE, runDatasetCommand } from "./dataset.js";
import { KEYS_USAGE, runKeysCommand } from "./keys.js";
import { probesExport } from "./probes-export.js";
import { probesImport } from "./probes-import.js";

/** One command group: its usage lines and how it runs (its argv after the group's name). */
interface CommandGroup {
  name: string;
  usage: string;
  run(argv: readonly string[], io: CliIo): Promise<number>;
}

/** Every command `lookout` knows; the usage is built from this table, so it names each one. */
export const COMMANDS: readonly CommandGroup[] = [
  { name: "probes", usage: PROBES_USAGE, run: runProbesCommand },
  { name: "dataset", usage: DATASET_USAGE, run: (argv, io) => runDatasetCommand(argv, io) },
  { name: "keys", usage: KEYS_USAGE, run: (argv, io) => runKeysCommand(argv, io) },
];

export const USAGE = `usage: npm run lookout -- <command>

${COMMANDS.map((c) => c.usage).join("\n")}

The database comes from the service's configuration (DATABASE_URL, else PGlite in DATA_DIR).
On PGlite, stop the service first: the embedded database takes one process at a time.`;

/** Runs one `lookout` command; returns the exit code (2 for usage errors). */
export async function runLookout(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    line(io.stdout, USAGE);
    return 0;
  }
  const group = COMMANDS.find((c) => c.name === name);
  if (!group) return usageError(io, `unknown command '${name}'`);
  return group.run(rest, io);
}

async function runProbesCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let command;
  try {
    command = parseArgs(["probes", ...argv]);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return usageError(io, err.message);
  }
  return command.kind === "probes-import" ? probesImport(io, command.file, command.skipBad) : probesExport(io, command.out, command.since);
}

function usageError(io: CliIo, problem: string): number {
  line(io.stderr, `lookout: ${problem}\n\n${USAGE}`);
  return 2;
}
