/** The command line of `npm run pay -- [METHOD] <path> ['<json body>'] [--credit <id>]`. */
export interface PayArgs {
  method: "GET" | "POST" | "DELETE";
  path: string;
  body: string | undefined;
  creditId: string | undefined;
}

export const PAY_USAGE = `usage: npm run pay -- [GET|POST|DELETE] <path> ['<json body>'] [--credit <creditId>]
  npm run pay -- /api/v1/credits '{}'                                  buy a credit bundle (POST)
  npm run pay -- GET /api/v1/credits/<creditId>                        its balance (free)
  npm run pay -- /api/v1/preflight '{"url":"<url>"}' --credit <creditId>   a preflight paid from it
LOOKOUT_BASE_URL (default http://localhost:8402), PAYER_KEY, MAX_PAYMENT_USDC (default 5), CREDIT_ID.`;

export class PayUsageError extends Error {}

const METHODS = ["GET", "POST", "DELETE"] as const;

export function parsePayArgs(argv: readonly string[], env: Record<string, string | undefined>): PayArgs {
  const rest = [...argv];
  let creditId = env.CREDIT_ID || undefined;
  const flag = rest.indexOf("--credit");
  if (flag !== -1) {
    creditId = rest[flag + 1];
    if (!creditId || creditId.startsWith("--")) throw new PayUsageError("--credit needs a creditId");
    rest.splice(flag, 2);
  }
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
  return { method, path, body, creditId };
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
