import { pino, type Logger } from "pino";
import pretty from "pino-pretty";

export type { Logger };

export type LogFormat = "auto" | "pretty" | "json";

/** Whether lines go out readable: asked for, or `auto` and stdout is a terminal (config makes CI json). */
export const prettyLogs = (format: LogFormat, stdoutIsTty = Boolean(process.stdout.isTTY)) => format === "pretty" || (format === "auto" && stdoutIsTty);

/** One pino logger for the process; secrets never reach it (see redact paths). */
export function createLogger(level: string, format: LogFormat = "json"): Logger {
  const options = {
    level,
    base: { service: "x402-lookout" },
    redact: {
      paths: [
        "req.headers.authorization",
        'req.headers["payment-signature"]',
        'req.headers["x-payment"]',
        'req.headers["x-credit-id"]',
        'req.headers["x-watch-secret"]',
        "secret",
        "privateKey",
      ],
      censor: "[redacted]",
    },
  };
  if (!prettyLogs(format)) return pino(options);
  // In-process and synchronous: a fatal line right before process.exit still reaches the terminal.
  return pino(options, pretty({ sync: true, colorize: true, translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname,service" }));
}
