import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.js";

const problems = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
};

describe("config", () => {
  it("runs on embedded defaults", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8402,
      host: "127.0.0.1",
      publicBaseUrl: "http://localhost:8402",
      dataDir: "./data",
      databaseUrl: undefined,
      roles: ["api", "prober", "ingester", "alerter"],
      network: "eip155:84532",
      facilitatorUrl: undefined,
      demoMode: true,
      catalogPollSeconds: 300,
      probeIntervalSeconds: 600,
      allowPrivateTargets: true,
      allowPrivateWebhooks: false,
      logLevel: "info",
    });
  });

  it("turns private targets off outside demo mode unless asked", () => {
    expect(loadConfig({ CATALOG_URLS: "https://catalog.example/discovery" }).allowPrivateTargets).toBe(false);
    expect(loadConfig({ CATALOG_URLS: "https://c.example/d", ALLOW_PRIVATE_TARGETS: "true" }).allowPrivateTargets).toBe(true);
  });

  it("names the variable, the problem and what is expected, one line each", () => {
    const p = problems({ PORT: "eighty", NETWORK: "eip155:1", LOG_LEVEL: "loud" });
    expect(p).toHaveLength(3);
    expect(p[0]).toBe('config: PORT="eighty" must be a port number');
    expect(p.find((l) => l.startsWith("config: NETWORK="))).toContain("eip155:84532, eip155:8453");
    expect(p.find((l) => l.startsWith("config: LOG_LEVEL="))).toContain("must be one of");
  });

  it.each([
    [{ ROLE: "api,web" }, "ROLE"],
    [{ PAY_TO: "0x123" }, "PAY_TO"],
    [{ CATALOG_URLS: "https://ok.example,not a url" }, "CATALOG_URLS"],
    [{ PROBE_INTERVAL_SECONDS: "1" }, "PROBE_INTERVAL_SECONDS"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ ALLOW_PRIVATE_WEBHOOKS: "maybe" }, "ALLOW_PRIVATE_WEBHOOKS"],
    [{ PUBLIC_BASE_URL: "lookout.example" }, "PUBLIC_BASE_URL"],
  ])("refuses %j", (env, name) => {
    const p = problems(env);
    expect(p).toHaveLength(1);
    expect(p[0]).toMatch(new RegExp(`^config: ${name}=`));
  });

  it("refuses production-looking settings that are inconsistent", () => {
    const p = problems({ NETWORK: "eip155:8453" });
    expect(p.join("\n")).toContain("needs FACILITATOR_URL");
    expect(p.join("\n")).toContain("needs PAY_TO");
    expect(problems({ FACILITATOR_URL: "https://x402.org/facilitator" })[0]).toContain("PAY_TO");
    expect(
      problems({
        NETWORK: "eip155:8453",
        FACILITATOR_URL: "https://f.example",
        PAY_TO: "0x1111111111111111111111111111111111111111",
        CATALOG_URLS: "https://c.example/discovery",
      }),
    ).toEqual([]);
  });

  it("parses roles and the facilitator auth header", () => {
    const c = loadConfig({ ROLE: "api, prober", FACILITATOR_URL: "https://f.example/", PAY_TO: "0x1111111111111111111111111111111111111111", FACILITATOR_AUTH_HEADER: "Authorization: Bearer abc" });
    expect(c.roles).toEqual(["api", "prober"]);
    expect(c.facilitatorUrl).toBe("https://f.example");
    expect(c.facilitatorAuthHeader).toEqual({ name: "Authorization", value: "Bearer abc" });
  });
});
