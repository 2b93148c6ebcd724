import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/commands/cli-io.js";
import { COMMANDS, runLookout, USAGE } from "../../src/cli/commands/run.js";
import { systemClock } from "../../src/lib/clock.js";
import { Capture } from "./helpers.js";

/** No command here opens the database: a usage error or the usage comes first. */
const io = () => {
  const out = { stdout: new Capture(), stderr: new Capture(), clock: systemClock };
  return { ...out, openDb: () => Promise.reject(new Error("no database in a usage test")) } satisfies CliIo;
};

describe("npm run lookout usage", () => {
  it.each(COMMANDS.map((c) => [c.name, c]))("names every subcommand %s accepts", async (name, group) => {
    // The subcommands as the command itself lists them when given none, so a new one cannot hide.
    const bare = io();
    expect(await group.run([], bare)).toBe(2);
    const listed = bare.stderr.text.match(new RegExp(`${name} needs a subcommand: (.+)`))?.[1];
    expect(listed, bare.stderr.text).toBeDefined();
    const subcommands = listed!.split(/, | or /);
    expect(subcommands.length).toBeGreaterThan(0);
    for (const sub of subcommands) expect(USAGE).toMatch(new RegExp(`^  ${name} ${sub}\\b`, "m"));
  });

  it("is printed by help, with dataset build among the commands", async () => {
    for (const argv of [[], ["help"], ["--help"]]) {
      const out = io();
      expect(await runLookout(argv, out)).toBe(0);
      expect(out.stdout.text).toBe(`${USAGE}\n`);
    }
    expect(USAGE).toContain("  dataset build\n");
    expect(COMMANDS.map((c) => c.name)).toEqual(["probes", "dataset", "keys"]);
  });

  it("comes with an unknown command", async () => {
    const out = io();
    expect(await runLookout(["listings"], out)).toBe(2);
    expect(out.stderr.text).toBe(`lookout: unknown command 'listings'\n\n${USAGE}\n`);
  });
});
