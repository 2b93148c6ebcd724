/**
 * The paid preflight journey's files: which of the repository's files run code while the
 * service answers one x402-paid POST /api/v1/preflight of a catalogued URL (payment read,
 * verify, claim, handler, settle), from V8's precise coverage. Issue 36 bounds it at 25.
 * `node --conditions=@x402-lookout/source --import tsx bench/payments/journey.ts`
 */
import { Session } from "node:inspector/promises";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { productRoutes } from "../../src/http/routes/index.js";
import { recompute, seedListing, seedProbes, series } from "../../test/helpers/catalog-fixtures.js";
import { startPaidService } from "../../test/helpers/paid-service.js";
import { x402PayingFetch } from "../../test/helpers/x402-payer.js";

const root = path.resolve(fileURLToPath(import.meta.url), "../../..");
const svc = await startPaidService({ routes: productRoutes });
const url = "https://journey.example/api/quote";
const id = await seedListing(svc.ctx, { url, price: "0.01" });
await seedProbes(svc.ctx, id, series(3_600_000, 300_000));
await recompute(svc.ctx);

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });

const repoFiles = (result: Array<{ url: string; functions: Array<{ ranges: Array<{ count: number }> }> }>) =>
  result
    .filter((s) => s.url.startsWith("file://") && s.functions.some((f) => f.ranges.some((r) => r.count > 0)))
    .map((s) => path.relative(root, fileURLToPath(s.url)))
    .filter((f) => !/^(node_modules|\.\.|test|bench)\//.test(f) && !f.startsWith(".."));
const take = async () => repoFiles((await session.post("Profiler.takePreciseCoverage")).result);

// What the handler's service call runs is the preflight's business, not the journey's: it is
// measured apart (the files it alone runs are listed separately).
const edge = new Set<string>();
const business = new Set<string>();
let measuring = false;
const reports = svc.ctx.services.reports as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
const preflight = reports.preflight!.bind(reports);
reports.preflight = async (...args) => {
  if (!measuring) return preflight(...args);
  for (const f of await take()) edge.add(f);
  try {
    return await preflight(...args);
  } finally {
    for (const f of await take()) business.add(f);
  }
};

// The client's own code runs in this process too: only the paid request's span is kept.
const spy: typeof fetch = async (input, init) => {
  const req = new Request(input as string | URL | Request, init);
  if (!req.headers.get("payment-signature")) return fetch(req);
  await take();
  measuring = true;
  const res = await fetch(req);
  measuring = false;
  for (const f of await take()) edge.add(f);
  return res;
};

for (const round of ["warm-up", "measured"]) {
  const pay = x402PayingFetch(svc.devnet.demoAccounts[round === "warm-up" ? 0 : 1]!.privateKey, { inner: spy });
  const res = await pay(`${svc.url}/api/v1/preflight`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url }) });
  if (res.status !== 200 || !res.headers.get("payment-response")) throw new Error(`paid preflight answered ${res.status}: ${await res.text()}`);
}
// devnet.ts and facilitator.ts are the in-process facilitator: across the wire in production.
const journey = [...edge].filter((f) => !/^src\/chain\/(devnet|facilitator)\.ts$/.test(f)).sort();
const only = [...business].filter((f) => !edge.has(f)).sort();
console.log(`journey (request to settled answer, without the handler's service call):\n  ${journey.join("\n  ")}`);
console.log(`the handler's service call alone:\n  ${only.join("\n  ")}`);
console.log(`journey: ${journey.length} files in ${new Set(journey.map(path.dirname)).size} folders; with the service call: ${journey.length + only.length}`);
await session.post("Profiler.stopPreciseCoverage");
session.disconnect();
await svc.close();
