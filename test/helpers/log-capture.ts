import { pino, type Logger } from "pino";

export interface CapturedLog {
  log: Logger;
  /** Parsed lines written so far (pino levels: 20 debug, 30 info, 40 warn, 50 error). */
  lines: Array<Record<string, unknown> & { level: number; msg: string }>;
  /** Resolves with the first line `match` accepts, as soon as it is written. */
  waitFor(match: (line: CapturedLog["lines"][number]) => boolean, timeoutMs?: number): Promise<CapturedLog["lines"][number]>;
}

/** A debug-level logger whose lines a test can read back. */
export function captureLog(): CapturedLog {
  const lines: CapturedLog["lines"] = [];
  const log = pino({ level: "debug" }, { write: (s: string) => void lines.push(JSON.parse(s)) });
  const waitFor: CapturedLog["waitFor"] = async (match, timeoutMs = 5_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = lines.find(match);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`no matching log line within ${timeoutMs} ms: ${JSON.stringify(lines)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { log, lines, waitFor };
}
