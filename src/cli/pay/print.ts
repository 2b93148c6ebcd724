import { isWatchPath, type PayArgs } from "./args.js";

/**
 * Prints the answer, the credit balance when a bundle paid, and after buying a bundle or a watch
 * the commands that use it, so what the README's first steps bought is usable at once.
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
  const { creditId, watchId } = (json ?? {}) as { creditId?: unknown; watchId?: unknown };
  if (res.ok && args.method === "POST" && args.path === "/api/v1/credits" && typeof creditId === "string") {
    console.log(`\nuse it:  npm run pay -- /api/v1/preflight '{"url":"<url>"}' --credit ${creditId}`);
    console.log(`balance: npm run pay -- GET /api/v1/credits/${creditId}`);
  }
  // The secret is in the answer above, shown once; the hints do not repeat it.
  if (res.ok && args.method === "POST" && args.path === "/api/v1/watch" && typeof watchId === "string") {
    console.log(`\nstatus:      WATCH_SECRET=<its secret> npm run pay -- GET /api/v1/watch/${watchId}`);
    console.log(`unsubscribe: WATCH_SECRET=<its secret> npm run pay -- DELETE /api/v1/watch/${watchId}`);
  }
  if (res.status === 404 && isWatchPath(args.path) && !args.watchSecret) {
    console.error("a watch answers only to its secret: set WATCH_SECRET (or pass --secret)");
  }
}
