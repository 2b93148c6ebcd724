import { pino, type Logger } from "pino";

export type { Logger };

/** One pino logger for the process; secrets never reach it (see redact paths). */
export function createLogger(level: string): Logger {
  return pino({
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
  });
}
