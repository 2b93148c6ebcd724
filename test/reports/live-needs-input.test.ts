import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizeUrl } from "../../src/lib/url-normalize.js";
import { createTestContext, type TestContext } from "../helpers/context.js";

// The live probe of an uncatalogued URL classes a 400/422 without a challenge as the prober does
// (decision 0046): needs_input, an answer, never a failed attempt.
let ctx: TestContext;
let server: Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    // POST validates its body before any 402; GET is not allowed at all.
    if (req.method === "POST") return void res.writeHead(422, { "content-type": "application/json" }).end('{"error":"text is required"}');
    res.writeHead(405, { allow: "POST" }).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.40", r));
  base = `http://127.0.0.40:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.close();
  await ctx?.close();
});

describe("a live probe answered 422", () => {
  it("reads needs_input, not failing or dead, whatever the other method answered", async () => {
    const r = await ctx.services.reports.preflight(`${base}/summarize`);
    expect(seen).toEqual(["POST /summarize", "GET /summarize"]);
    expect(r).toMatchObject({ ok: true, recommended_action: "investigate", confidence: 0.2 });
    expect(r.reason_codes).toEqual(["unknown_endpoint", "needs_input"]);
    const cached = await ctx.db.db
      .selectFrom("live_probe_cache")
      .select("result")
      .where("url_normalized", "=", normalizeUrl(`${base}/summarize`))
      .executeTakeFirstOrThrow();
    expect(cached.result).toMatchObject({ outcome: "needs_input", statusCode: 422, method: "POST", failedAttempts: 0 });
  });
});
