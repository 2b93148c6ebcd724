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

// Shaped like real settings; never real keys.
const mainnetSecrets = { WATCH_SECRET_KEY: "11".repeat(32), SIGNING_SECRET_KEY: "2a".repeat(32), METRICS_TOKEN: "metrics-token-0123456789" };

describe("config", () => {
  it("runs on embedded defaults", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8402,
      host: "127.0.0.1",
      publicBaseUrl: "http://localhost:8402",
      dataDir: "./data",
      databaseUrl: undefined,
      roles: ["api", "prober", "ingester", "alerter", "canary", "indexer"],
      network: "eip155:84532",
      facilitatorUrl: undefined,
      demoMode: true,
      catalogPollSeconds: 300,
      probeIntervalSeconds: 30,
      allowPrivateTargets: true,
      allowPrivateWebhooks: true,
      logLevel: "info",
    });
  });

  it("demo mode probes every 30 s, takes loopback webhooks and builds the dataset after an hour; production keeps its defaults", () => {
    expect(loadConfig({})).toMatchObject({ probeIntervalSeconds: 30, allowPrivateWebhooks: true, datasetMinEvidenceHours: 1 });
    const prod = loadConfig({ CATALOG_URLS: "https://catalog.example/discovery" });
    expect(prod).toMatchObject({ probeIntervalSeconds: 600, allowPrivateWebhooks: false, datasetMinEvidenceHours: 168 });
    expect(loadConfig({ PROBE_INTERVAL_SECONDS: "600", ALLOW_PRIVATE_WEBHOOKS: "false", DATASET_MIN_EVIDENCE_HOURS: "24" })).toMatchObject({
      probeIntervalSeconds: 600,
      allowPrivateWebhooks: false,
      datasetMinEvidenceHours: 24,
    });
    expect(problems({ DATASET_MIN_EVIDENCE_HOURS: "0" })[0]).toMatch(/^config: DATASET_MIN_EVIDENCE_HOURS=/);
  });

  it("turns private targets off outside demo mode unless asked", () => {
    expect(loadConfig({ CATALOG_URLS: "https://catalog.example/discovery" }).allowPrivateTargets).toBe(false);
    expect(loadConfig({ CATALOG_URLS: "https://c.example/d", ALLOW_PRIVATE_TARGETS: "true" }).allowPrivateTargets).toBe(true);
  });

  it("keeps customer-named live probes off private addresses unless their own switch is on (the catalog's does not open them)", () => {
    expect(loadConfig({}).allowPrivateLiveProbes).toBe(true); // demo mode: the fleet is on loopback
    expect(loadConfig({ CATALOG_URLS: "https://c.example/d", ALLOW_PRIVATE_TARGETS: "true" }).allowPrivateLiveProbes).toBe(false);
    expect(loadConfig({ CATALOG_URLS: "https://c.example/d", ALLOW_PRIVATE_LIVE_PROBES: "true" }).allowPrivateLiveProbes).toBe(true);
    expect(loadConfig({ ALLOW_PRIVATE_LIVE_PROBES: "false" }).allowPrivateLiveProbes).toBe(false);
    expect(problems({ ALLOW_PRIVATE_LIVE_PROBES: "maybe" })[0]).toMatch(/^config: ALLOW_PRIVATE_LIVE_PROBES=/);
  });

  it("names the variable, the problem and what is expected, one line each", () => {
    const p = problems({ PORT: "eighty", NETWORK: "eip155:1", LOG_LEVEL: "loud" });
    expect(p).toHaveLength(3);
    expect(p[0]).toBe('config: PORT="eighty" must be a port number');
    expect(p.find((l) => l.startsWith("config: NETWORK="))).toContain("eip155:84532, eip155:8453");
    expect(p.find((l) => l.startsWith("config: LOG_LEVEL="))).toContain("must be one of");
  });

  it("names the prober's vantage 'default' and leaves its source address to the system unless set (decision 0048)", () => {
    expect(loadConfig({})).toMatchObject({ probeVantage: "default", probeSourceAddress: undefined });
    expect(loadConfig({ PROBE_VANTAGE: "eu-west.2", PROBE_SOURCE_ADDRESS: "::1" })).toMatchObject({ probeVantage: "eu-west.2", probeSourceAddress: "::1" });
  });

  it.each([
    [{ ROLE: "api,web" }, "ROLE"],
    [{ PAY_TO: "0x123" }, "PAY_TO"],
    [{ CATALOG_URLS: "https://ok.example,not a url" }, "CATALOG_URLS"],
    [{ PROBE_INTERVAL_SECONDS: "1" }, "PROBE_INTERVAL_SECONDS"],
    [{ PROBE_VANTAGE: "eu west" }, "PROBE_VANTAGE"],
    [{ PROBE_SOURCE_ADDRESS: "eth0" }, "PROBE_SOURCE_ADDRESS"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ ALLOW_PRIVATE_WEBHOOKS: "maybe" }, "ALLOW_PRIVATE_WEBHOOKS"],
    [{ PUBLIC_BASE_URL: "lookout.example" }, "PUBLIC_BASE_URL"],
  ])("refuses %j", (env, name) => {
    const p = problems(env);
    expect(p).toHaveLength(1);
    expect(p[0]).toMatch(new RegExp(`^config: ${name}=`));
  });

  it("never echoes a password, key or auth header: secrets are redacted, URLs shown by origin", () => {
    const p = problems({
      DATABASE_URL: "mysql://lookout:s3cret@db.internal:3306/x?password=s3cret",
      FACILITATOR_URL: "ftp://user:s3cret@f.example/s3cret",
      RPC_URL: "wss://rpc.example/v2/s3cret?apikey=s3cret",
      FACILITATOR_AUTH_HEADER: "Bearer s3cret",
      CATALOG_URLS: "https://c.example/d?token=s3cret,s3cret:pass@c.example",
      PUBLIC_BASE_URL: "s3cret@lookout.example",
    });
    expect(p).toHaveLength(6);
    for (const line of p) expect(line).not.toContain("s3cret");
    expect(p).toContain('config: DATABASE_URL="mysql://db.internal:3306" must be a postgres:// or postgresql:// connection string');
    expect(p.find((l) => l.startsWith("config: RPC_URL="))).toContain('"wss://rpc.example"');
    expect(p.find((l) => l.startsWith("config: FACILITATOR_AUTH_HEADER="))).toMatch(/=\[redacted\] must look like/);
    expect(p.find((l) => l.startsWith("config: CATALOG_URLS="))).toContain("entry 2 is not an http(s) URL");
  });

  it("refuses production-looking settings that are inconsistent", () => {
    const p = problems({ NETWORK: "eip155:8453" });
    expect(p.join("\n")).toContain("needs FACILITATOR_URL");
    expect(p.join("\n")).toContain("needs PAY_TO");
    expect(problems({ FACILITATOR_URL: "https://x402.org/facilitator" })[0]).toContain("PAY_TO");
    const mainnet = {
      NETWORK: "eip155:8453",
      FACILITATOR_URL: "https://f.example",
      PAY_TO: "0x1111111111111111111111111111111111111111",
      CATALOG_URLS: "https://c.example/discovery",
      ...mainnetSecrets,
    };
    expect(problems(mainnet)).toEqual([]);
    expect(problems({ ...mainnet, ALLOW_PRIVATE_LIVE_PROBES: "true" })).toEqual([
      "config: ALLOW_PRIVATE_LIVE_PROBES=true is for tests and demos only and is refused with NETWORK=eip155:8453",
    ]);
    // The paid checker spends real USDC on mainnet: only with a budget set on purpose (decision 0051).
    const key = "0x" + "ab".repeat(32);
    expect(problems({ ...mainnet, CANARY_PRIVATE_KEY: key })).toEqual([
      "config: NETWORK=eip155:8453 (Base mainnet) with CANARY_PRIVATE_KEY needs CANARY_BUDGET_USDC_PER_DAY: the paid checker spends real USDC",
    ]);
    expect(loadConfig({ ...mainnet, CANARY_PRIVATE_KEY: key, CANARY_BUDGET_USDC_PER_DAY: "2.5" }).canary).toMatchObject({
      budgetUsdcPerDay: "2.5",
      maxPriceUsdc: "0.01",
    });
  });

  it("gives the paid checker safe limits: off without a key, production cadence, demo cadence in demo mode (decision 0051)", () => {
    expect(loadConfig({ CATALOG_URLS: "https://c.example/d" }).canary).toEqual({
      privateKey: undefined,
      budgetUsdcPerDay: "1",
      maxPriceUsdc: "0.01",
      intervalHours: 24,
      hostChecksPerDay: 24,
    });
    expect(loadConfig({}).canary).toMatchObject({ budgetUsdcPerDay: "10", intervalHours: 0.05, hostChecksPerDay: 5000 });
    expect(loadConfig({ ROLE: "all" }).roles).toContain("canary");
  });

  it("reads the chain indexer's settings: production defaults, demo cadence and window in demo mode (decision 0052)", () => {
    expect(loadConfig({ CATALOG_URLS: "https://c.example/d" }).chain).toEqual({
      confirmations: 5,
      rangeBlocks: 2000,
      rpcPerSecond: 10,
      indexIntervalSeconds: 15,
      ghostMinListedHours: 168,
    });
    expect(loadConfig({}).chain).toMatchObject({ confirmations: 0, indexIntervalSeconds: 5, ghostMinListedHours: 0.1 });
    expect(loadConfig({ CHAIN_CONFIRMATIONS: "12", GHOST_MIN_LISTED_HOURS: "24" }).chain).toMatchObject({ confirmations: 12, ghostMinListedHours: 24 });
    expect(loadConfig({ ROLE: "indexer" }).roles).toEqual(["indexer"]);
  });

  it.each([
    [{ CHAIN_CONFIRMATIONS: "-1" }],
    [{ CHAIN_LOG_RANGE_BLOCKS: "0" }],
    [{ CHAIN_RPC_PER_SECOND: "fast" }],
    [{ CHAIN_INDEX_INTERVAL_SECONDS: "0" }],
    [{ GHOST_MIN_LISTED_HOURS: "0" }],
  ])("refuses the indexer's setting %j with one line", (env) => {
    const p = problems(env);
    expect(p).toHaveLength(1);
    expect(p[0]).toMatch(/^config: (CHAIN_|GHOST_)/);
  });

  it.each([
    [{ CANARY_PRIVATE_KEY: "0x1234" }],
    [{ CANARY_BUDGET_USDC_PER_DAY: "-1" }],
    [{ CANARY_BUDGET_USDC_PER_DAY: "0.0000001" }],
    [{ CANARY_MAX_PRICE_USDC: "2" }],
    [{ CANARY_INTERVAL_HOURS: "0" }],
    [{ CANARY_HOST_CHECKS_PER_DAY: "1.5" }],
  ])("refuses the checker's setting %j, never echoing a key", (env) => {
    const p = problems(env);
    expect(p).toHaveLength(1);
    expect(p[0]).toMatch(/^config: CANARY_/);
    if ("CANARY_PRIVATE_KEY" in env) expect(p[0]).toBe("config: CANARY_PRIVATE_KEY=[redacted] must be a 0x-prefixed 32-byte hex private key");
  });

  it("refuses mainnet without sealed secrets and private metrics, naming each missing setting and echoing no secret", () => {
    const base = {
      NETWORK: "eip155:8453",
      FACILITATOR_URL: "https://f.example",
      PAY_TO: "0x1111111111111111111111111111111111111111",
      CATALOG_URLS: "https://c.example/d",
    };
    expect(problems(base)).toEqual([
      "config: NETWORK=eip155:8453 (Base mainnet) needs WATCH_SECRET_KEY: watch secrets are sealed at rest on mainnet",
      "config: NETWORK=eip155:8453 (Base mainnet) needs SIGNING_SECRET_KEY: the verdict and certificate signing key is sealed at rest on mainnet",
      "config: NETWORK=eip155:8453 (Base mainnet) needs ADMIN_PORT or METRICS_TOKEN: /metrics is not served publicly on mainnet",
    ]);
    const { WATCH_SECRET_KEY, SIGNING_SECRET_KEY } = mainnetSecrets;
    const p = problems({ ...base, WATCH_SECRET_KEY, METRICS_TOKEN: mainnetSecrets.METRICS_TOKEN });
    expect(p).toEqual([expect.stringContaining("needs SIGNING_SECRET_KEY")]);
    expect(p.join("\n")).not.toContain(WATCH_SECRET_KEY);
    expect(problems({ ...base, WATCH_SECRET_KEY, SIGNING_SECRET_KEY, ADMIN_PORT: "9464" })).toEqual([]);
    // A malformed sealing key is named and not echoed.
    const bad = problems({ ...base, WATCH_SECRET_KEY, SIGNING_SECRET_KEY: "ab".repeat(16), ADMIN_PORT: "9464" });
    expect(bad).toEqual(["config: SIGNING_SECRET_KEY=[redacted] must be 32 bytes: 64 hex characters or base64"]);
    // The devnet needs none of them: `npm start` with nothing configured still starts.
    expect(loadConfig({}).signingSecretKey).toBeUndefined();
    expect(loadConfig({ SIGNING_SECRET_KEY: SIGNING_SECRET_KEY.toUpperCase() }).signingSecretKey!.toString("hex")).toBe(SIGNING_SECRET_KEY);
  });

  it("parses roles and the facilitator auth header", () => {
    const c = loadConfig({
      ROLE: "api, prober",
      FACILITATOR_URL: "https://f.example/",
      PAY_TO: "0x1111111111111111111111111111111111111111",
      FACILITATOR_AUTH_HEADER: "Authorization: Bearer abc",
    });
    expect(c.roles).toEqual(["api", "prober"]);
    expect(c.facilitatorUrl).toBe("https://f.example");
    expect(c.facilitatorAuthHeader).toEqual({ name: "Authorization", value: "Bearer abc" });
  });
});

describe("config: CDP API key", () => {
  const remote = { FACILITATOR_URL: "https://api.cdp.coinbase.com/platform/v2/x402", PAY_TO: "0x1111111111111111111111111111111111111111" };
  // Shaped like a CDP Ed25519 secret (base64 of 64 bytes); never a real key.
  const secret = Buffer.alloc(64, 7).toString("base64");

  it("takes the id and the secret together", () => {
    expect(loadConfig({ ...remote, CDP_API_KEY_ID: "organizations/o/apiKeys/k", CDP_API_KEY_SECRET: secret }).cdpApiKey).toEqual({
      keyId: "organizations/o/apiKeys/k",
      keySecret: secret,
    });
    expect(loadConfig(remote).cdpApiKey).toBeUndefined();
  });

  it.each([
    ["the id alone", { CDP_API_KEY_ID: "k" }],
    ["the secret alone", { CDP_API_KEY_SECRET: secret }],
  ])("refuses %s", (_what, env) => {
    const p = problems({ ...remote, ...env });
    expect(p).toEqual(["config: CDP_API_KEY_ID and CDP_API_KEY_SECRET go together: set both (one CDP API key) or neither"]);
  });

  it("refuses a CDP key next to a static auth header, and without a facilitator URL", () => {
    const both = problems({ ...remote, CDP_API_KEY_ID: "k", CDP_API_KEY_SECRET: secret, FACILITATOR_AUTH_HEADER: "X-Api-Key: abc" });
    expect(both).toEqual([expect.stringMatching(/^config: CDP_API_KEY_ID\/CDP_API_KEY_SECRET and FACILITATOR_AUTH_HEADER are both set/)]);
    const local = problems({ CDP_API_KEY_ID: "k", CDP_API_KEY_SECRET: secret });
    expect(local).toEqual([expect.stringMatching(/^config: CDP_API_KEY_ID\/CDP_API_KEY_SECRET are set without FACILITATOR_URL/)]);
  });

  it("refuses a secret in neither CDP format without showing it", () => {
    for (const bad of ["s3cret-not-a-key", Buffer.alloc(32, 7).toString("base64"), "-----BEGIN PRIVATE KEY-----\ns3cret\n-----END PRIVATE KEY-----"]) {
      const p = problems({ ...remote, CDP_API_KEY_ID: "k", CDP_API_KEY_SECRET: bad });
      expect(p).toEqual(["config: CDP_API_KEY_SECRET=[redacted] must be a CDP API key secret: base64 Ed25519, or an EC P-256 private key in PEM"]);
    }
  });
});
