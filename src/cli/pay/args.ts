/** The command line of `npm run pay -- [METHOD] <path> ['<json body>'] [--credit <id>] [--secret <secret>]`. */
export interface PayArgs {
  method: "GET" | "POST" | "DELETE";
  path: string;
  body: string | undefined;
  creditId: string | undefined;
  /** A watch's secret, sent as `Authorization: Bearer` on /api/v1/watch/<id> only; never printed. */
  watchSecret: string | undefined;
}

export const PAY_USAGE = `usage: npm run pay -- [GET|POST|DELETE] <path> ['<json body>'] [--credit <creditId>] [--secret <watch secret>]
  npm run pay -- /api/v1/credits '{}'                                  buy a credit bundle (POST)
  npm run pay -- GET /api/v1/credits/<creditId>                        its balance (free)
  npm run pay -- /api/v1/preflight '{"url":"<url>"}' --credit <creditId>   a preflight paid from it
  WATCH_SECRET=<secret> npm run pay -- GET /api/v1/watch/<watchId>     a watch's status (free)
  WATCH_SECRET=<secret> npm run pay -- DELETE /api/v1/watch/<watchId>  unsubscribe (free)
LOOKOUT_BASE_URL (default http://localhost:8402), PAYER_KEY, MAX_PAYMENT_USDC (default 5), CREDIT_ID,
WATCH_SECRET (or --secret; the environment keeps it out of your shell history).`;

/** Where a watch secret goes: a watch's status and unsubscribe route, nowhere else. */
export const isWatchPath = (path: string) => /^\/api\/v1\/watch\/[^/?#]+$/.test(path);

export class PayUsageError extends Error {}

const METHODS = ["GET", "POST", "DELETE"] as const;

export function parsePayArgs(argv: readonly string[], env: Record<string, string | undefined>): PayArgs {
  const rest = [...argv];
  const creditId = takeFlag(rest, "--credit", "a creditId") ?? (env.CREDIT_ID || undefined);
  const secretFlag = takeFlag(rest, "--secret", "the watch's secret");
  const unknown = rest.find((a) => a.startsWith("--"));
  if (unknown) throw new PayUsageError(`unknown option ${unknown}`);
  const named = METHODS.find((m) => m === rest[0]?.toUpperCase());
  if (named) rest.shift();
  const [path, rawBody, ...extra] = rest;
  if (!path || !path.startsWith("/") || extra.length > 0) throw new PayUsageError("expected a path starting with / and at most one JSON body");
  let body: string | undefined;
  if (rawBody !== undefined) {
    try {
      body = JSON.stringify(JSON.parse(rawBody));
    } catch (err) {
      throw new PayUsageError(`the body is not valid JSON: ${(err as Error).message}`);
    }
  }
  const method = named ?? "POST";
  if (method === "GET" && body !== undefined) throw new PayUsageError("a GET request takes no body");
  if (secretFlag !== undefined && !isWatchPath(path)) throw new PayUsageError("--secret is for /api/v1/watch/<watchId> only");
  const watchSecret = isWatchPath(path) ? (secretFlag ?? (env.WATCH_SECRET || undefined)) : undefined;
  return { method, path, body, creditId, watchSecret };
}

/** Removes `flag <value>` from `rest` and answers the value; the message names what is missing, never a value. */
function takeFlag(rest: string[], flag: string, what: string): string | undefined {
  const at = rest.indexOf(flag);
  if (at === -1) return undefined;
  const value = rest[at + 1];
  if (!value || value.startsWith("--")) throw new PayUsageError(`${flag} needs ${what}`);
  rest.splice(at, 2);
  return value;
}

/**
 * The service's address: LOOKOUT_BASE_URL like the example agent and the MCP server. LOOKOUT_URL,
 * the old name, still works for now and says so.
 */
export function baseUrlOf(env: Record<string, string | undefined>): { base: string; warning: string | undefined } {
  const chosen = env.LOOKOUT_BASE_URL || env.LOOKOUT_URL || "http://localhost:8402";
  const warning = !env.LOOKOUT_BASE_URL && env.LOOKOUT_URL ? "pay: LOOKOUT_URL is deprecated and will be removed; set LOOKOUT_BASE_URL instead" : undefined;
  return { base: chosen.replace(/\/+$/, ""), warning };
}
