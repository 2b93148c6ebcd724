import { pino } from "pino";

/**
 * The service's logger in the bench: warnings and errors go to stderr as usual, and error lines
 * (level 50 and above) are counted, the first few kept, so the report can say whether any task
 * failed during the run.
 */
export function countingLogger() {
  const errors = { count: 0, first: [] as string[] };
  const log = pino(
    { level: "warn" },
    {
      write(line: string) {
        process.stderr.write(line);
        const entry = JSON.parse(line) as { level: number; msg?: string; worker?: string; err?: { message?: string } };
        if (entry.level >= 50 && errors.count++ < 3) errors.first.push(`${entry.worker ?? "service"}: ${entry.msg} (${entry.err?.message ?? ""})`);
      },
    },
  );
  return { log, errors };
}
