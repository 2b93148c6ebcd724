/** The command line of `npm run lookout -- probes ...`, parsed; a usage error carries its message. */
export type Command = { kind: "probes-import"; file: string; skipBad: boolean } | { kind: "probes-export"; out: string | undefined; since: Date | undefined };

export const PROBES_USAGE = `  probes import <file.ndjson> [--skip-bad]
      Import probe history from another monitor: one JSON object a line with
      url, method (default POST), at (ISO 8601), status or network_error, latency_ms, price_usdc.
      Every line is checked; any bad line aborts the import unless --skip-bad.
  probes export [--out <file>] [--since <ISO date-time>]
      Write the retained raw probes in the same format (to stdout without --out).`;

export class UsageError extends Error {}

function takeValue(args: string[], i: number, flag: string): string {
  const v = args[i + 1];
  if (v === undefined || v.startsWith("--")) throw new UsageError(`${flag} needs a value`);
  return v;
}

export function parseArgs(argv: readonly string[]): Command {
  const [, action, ...rest] = argv;
  if (action === "import") {
    const skipBad = rest.includes("--skip-bad");
    const files = rest.filter((a) => a !== "--skip-bad");
    const unknown = files.find((a) => a.startsWith("--"));
    if (unknown) throw new UsageError(`unknown option ${unknown}`);
    if (files.length !== 1) throw new UsageError("probes import needs exactly one file");
    return { kind: "probes-import", file: files[0]!, skipBad };
  }
  if (action === "export") {
    let out: string | undefined;
    let since: Date | undefined;
    for (let i = 0; i < rest.length; i += 2) {
      const flag = rest[i]!;
      const value = takeValue(rest, i, flag);
      if (flag === "--out") out = value;
      else if (flag === "--since") {
        since = new Date(value);
        if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(since.getTime())) throw new UsageError(`--since '${value}' is not an ISO 8601 date-time`);
      } else throw new UsageError(`unknown option ${flag}`);
    }
    return { kind: "probes-export", out, since };
  }
  throw new UsageError(action === undefined ? "probes needs a subcommand: import or export" : `unknown probes subcommand '${action}'`);
}
