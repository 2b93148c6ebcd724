import type { PayArgs } from "./args.js";

/**
 * Prints the answer, the credit balance when a bundle paid, and after buying a bundle the two
 * commands that use it, so the credits bought in the README's first step are usable at once.
 */
export async function printAnswer(res: Response, args: PayArgs): Promise<void> {
  const balance = res.headers.get("x-credit-balance");
  if (balance !== null) console.log(`credit  paid from bundle ${args.creditId}: ${balance} call(s) left`);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    console.log(text);
    return;
  }
  console.log(JSON.stringify(json, null, 2));
  const creditId = (json as { creditId?: unknown } | null)?.creditId;
  if (res.ok && args.method === "POST" && args.path === "/api/v1/credits" && typeof creditId === "string") {
    console.log(`\nuse it:  npm run pay -- /api/v1/preflight '{"url":"<url>"}' --credit ${creditId}`);
    console.log(`balance: npm run pay -- GET /api/v1/credits/${creditId}`);
  }
}
