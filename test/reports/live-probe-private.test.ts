import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizeUrl } from "../../src/lib/url-normalize.js";
import { createTestContext, type TestContext } from "../helpers/context.js";

/**
 * A live probe goes where a customer points it, so the catalog's switch for private targets
 * (ALLOW_PRIVATE_TARGETS) does not open loopback and private addresses to it: only
 * ALLOW_PRIVATE_LIVE_PROBES does (on by default in demo mode only).
 */
let target: Server;
let seen = 0;
let url: string;

beforeAll(async () => {
  target = createServer((_req, res) => {
    seen++;
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/internal/admin`;
});
afterAll(() => new Promise<void>((r) => target.close(() => r())));

async function preflightWith(env: Record<string, string>) {
  const ctx: TestContext = await createTestContext({ CATALOG_URLS: "https://catalog.example/discovery", ...env });
  try {
    const answer = await ctx.services.reports.preflight(url);
    const cached = await ctx.db.db.selectFrom("live_probe_cache").select("result").where("url_normalized", "=", normalizeUrl(url)).executeTakeFirst();
    return { answer, cached: cached?.result as Record<string, unknown> | undefined };
  } finally {
    await ctx.close();
  }
}

describe("customer-driven live probes and private addresses", () => {
  it("never reach a loopback address when only the catalog's switch is on", async () => {
    const before = seen;
    const { answer, cached } = await preflightWith({ ALLOW_PRIVATE_TARGETS: "true" });
    expect(seen).toBe(before);
    // Refused at connect time by the SSRF guard: an unreachable URL, never a reading of the target.
    expect(answer.warnings).toContain("unknown_endpoint");
    expect(answer.recommended_action).not.toBe("pay");
    expect(cached).toMatchObject({ statusCode: null });
  });

  it("reach it with ALLOW_PRIVATE_LIVE_PROBES on (tests, demos)", async () => {
    const before = seen;
    const { answer } = await preflightWith({ ALLOW_PRIVATE_LIVE_PROBES: "true" });
    expect(seen).toBe(before + 2); // the 500 and its retry
    expect(answer.warnings).toEqual(["unknown_endpoint", "dead"]);
  });
});
