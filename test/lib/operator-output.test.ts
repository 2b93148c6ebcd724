import { describe, expect, it } from "vitest";
import { banner } from "../../src/banner.js";
import { loadConfig } from "../../src/config.js";
import { prettyLogs } from "../../src/lib/log.js";

describe("log format", () => {
  it("is pretty on a terminal, JSON on a pipe, and JSON under CI unless asked", () => {
    expect(prettyLogs("auto", true)).toBe(true);
    expect(prettyLogs("auto", false)).toBe(false);
    expect(prettyLogs("pretty", false)).toBe(true);
    expect(prettyLogs("json", true)).toBe(false);
    expect(loadConfig({}).logFormat).toBe("auto");
    expect(loadConfig({ CI: "true" }).logFormat).toBe("json");
    expect(loadConfig({ CI: "false" }).logFormat).toBe("auto");
    expect(loadConfig({ CI: "true", LOG_FORMAT: "pretty" }).logFormat).toBe("pretty");
  });
});

describe("operations config", () => {
  it("has readiness bounds that follow the poll cadence, and an admin listener only when asked", () => {
    const c = loadConfig({});
    expect(c.ready).toEqual({ verdictMaxAgeSeconds: 300, catalogMaxAgeSeconds: 900, startGraceSeconds: 600 });
    expect(loadConfig({ CATALOG_POLL_SECONDS: "600" }).ready.catalogMaxAgeSeconds).toBe(1800);
    expect(c.admin).toBeUndefined();
    expect(loadConfig({ ADMIN_PORT: "9464" }).admin).toEqual({ port: 9464, host: "127.0.0.1" });
    expect(() => loadConfig({ PORT: "9464", ADMIN_PORT: "9464" })).toThrow("config: ADMIN_PORT=9464 is PORT too: the admin listener needs a port of its own");
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow("config: METRICS_TOKEN=[redacted] must be at least 16 characters");
  });
});

describe("start-up banner", () => {
  const demo = { payerKey: "0xkey", healthy: "http://127.0.0.1:1/ok", decoy: "http://127.0.0.1:2/decoy", dead: "http://127.0.0.1:3/dead" };

  it("names the demo key as a public test key, three commands and the three demo URLs", () => {
    const { text, fields } = banner({ url: "http://127.0.0.1:8402", demo });
    expect(text).toContain("a public anvil test key");
    expect(text).toContain("0xkey");
    expect(fields.commands).toEqual([
      `curl -s -X POST http://127.0.0.1:8402/api/v1/preflight-trial -H 'content-type: application/json' -d '{"url":"http://127.0.0.1:1/ok"}'`,
      `npm run pay -- /api/v1/preflight '{"url":"http://127.0.0.1:2/decoy"}'`,
      "curl -s http://127.0.0.1:8402/readyz",
    ]);
    expect(fields.demoEndpoints).toEqual({ healthy: demo.healthy, decoy: demo.decoy, dead: demo.dead });
    expect(text.trim().split("\n").length).toBeLessThanOrEqual(10);
  });

  it("names the address for npm run pay when it is not the default one, and leaves the key out outside demo mode", () => {
    const { text, fields } = banner({ url: "http://0.0.0.0:9000" });
    expect((fields.commands as string[])[1]).toMatch(/^LOOKOUT_BASE_URL=http:\/\/0\.0\.0\.0:9000 npm run pay/);
    expect(text).not.toContain("key");
    expect(fields.demoPayerKey).toBeUndefined();
  });
});
