/**
 * Infrastructure failures a retry can fix: the database (or another dependency) is down, slow
 * or restarting. The API answers these with 503, never 500, and never settles a payment.
 */
const PG_TRANSIENT_CODES = new Set(["57014", "57P01", "57P02", "57P03", "53300", "40001", "40P01"]);
const NODE_TRANSIENT_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN"]);
// "destroyed": the pool was closed under a request during shutdown; another process can answer.
const TRANSIENT_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /pglite is closed/i,
  /Connection refused/i,
  /driver has already been destroyed/i,
];

export class DeadlineExceededError extends Error {
  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${what} did not finish within ${ms} ms`);
    this.name = "DeadlineExceededError";
  }
}

export function isTransient(err: unknown): boolean {
  if (err instanceof DeadlineExceededError) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" && (PG_TRANSIENT_CODES.has(code) || code.startsWith("08") || NODE_TRANSIENT_CODES.has(code))) {
    return true;
  }
  if (TRANSIENT_MESSAGES.some((re) => re.test(err.message))) return true;
  return err.cause !== undefined && err.cause !== err && isTransient(err.cause);
}

/** Runs `work` and rejects with DeadlineExceededError once `ms` pass (the work is not cancelled). */
export async function withDeadline<T>(what: string, ms: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceededError(what, ms)), ms);
  });
  try {
    return await Promise.race([work(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
