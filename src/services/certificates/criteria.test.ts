import { describe, expect, it } from "vitest";
import { CertificateBody } from "@x402-lookout/contracts/verified/schemas";
import { evaluateCriteria, type CriterionReport } from "./criteria.js";
import type { ListingEvidence } from "./evidence.js";
import { parseScope } from "./scope.js";
import { ALL_CODES } from "../signals/constants.js";
import { verdictFrom } from "../signals/engine.js";

const good = (over: Partial<ListingEvidence> = {}): ListingEvidence => ({
  id: 1,
  url: "https://api.example.com/v1/forecast",
  method: "GET",
  active: true,
  payTo: "0x02484cb50aac86eae85610d6f4bf026f30f6627d",
  serviceName: "Example Forecast",
  probes7d: 1008,
  uptime7dPct: 99.5,
  p99Latency7dMs: 400,
  warnings: [],
  delistReasons: [],
  hasVerdict: true,
  probes1h: 6,
  priceUsdc: "0.001",
  lastProbeAt: new Date("2026-11-20T11:55:00Z"),
  lastOutcome: "healthy",
  lastStatusCode: 402,
  lastChallengeVersion: 2,
  lastChallengeAt: new Date("2026-11-20T11:55:00Z"),
  ...over,
});

const byId = (reports: CriterionReport[]) => Object.fromEntries(reports.map((r) => [r.id, r]));
const met = (over: Partial<ListingEvidence>, id: string) => byId(evaluateCriteria([good(over)]))[id]!.met;

describe("each criterion at its boundary", () => {
  it("probes_7d: 20 probes meet it, 19 do not", () => {
    expect(met({ probes7d: 20 }, "probes_7d")).toBe(true);
    expect(met({ probes7d: 19 }, "probes_7d")).toBe(false);
  });

  it("uptime_7d: exactly 95% meets it, 94.99% does not, no data does not", () => {
    expect(met({ uptime7dPct: 95 }, "uptime_7d")).toBe(true);
    expect(met({ uptime7dPct: 94.99 }, "uptime_7d")).toBe(false);
    expect(met({ uptime7dPct: null }, "uptime_7d")).toBe(false);
  });

  it("no_critical_warning: a non-critical warning passes, any critical one fails", () => {
    expect(met({ warnings: ["slow", "high_concentration", "proxy_markup"] }, "no_critical_warning")).toBe(true);
    for (const w of ["dead", "zombie", "decoy_price_extreme", "never_paid_zombie", "dead_7d", "mostly_dead"]) {
      expect(met({ warnings: ["slow", w] }, "no_critical_warning")).toBe(false);
    }
  });

  it("clean_verdict: only a stored verdict of pay that nothing delists meets it, naming what keeps it off pay", () => {
    const read = (over: Partial<ListingEvidence>) => byId(evaluateCriteria([good(over)])).clean_verdict!;
    expect(read({})).toMatchObject({ met: true, observed: "pay" });
    expect(read({ warnings: ["high_concentration"] })).toMatchObject({ met: true, observed: "pay" });
    for (const w of ["suspicious_high_price", "decoy_price_extreme", "never_paid_zombie", "wildcard_402", "spa_fallback", "proxy_markup", "failing", "dead"]) {
      expect(read({ warnings: ["high_concentration", w] }), w).toMatchObject({ met: false, observed: w });
    }
    expect(read({ delistReasons: ["ghost_listing"] })).toMatchObject({ met: false, observed: "ghost_listing" });
    expect(read({ hasVerdict: false })).toMatchObject({ met: false, observed: "no verdict yet" });
  });

  it("clean_verdict agrees with the engine's action for every code: met exactly when the action is pay", () => {
    for (const w of ALL_CODES) expect(met({ warnings: [w] }, "clean_verdict"), w).toBe(verdictFrom([w], true, 1, "forensics").recommended_action === "pay");
  });

  it("p99_latency_7d: 5000 ms meets it, 5001 ms does not, no samples do not", () => {
    expect(met({ p99Latency7dMs: 5000 }, "p99_latency_7d")).toBe(true);
    expect(met({ p99Latency7dMs: 5001 }, "p99_latency_7d")).toBe(false);
    expect(met({ p99Latency7dMs: null }, "p99_latency_7d")).toBe(false);
  });

  it("price_range: 0.0001 and 5 USDC meet it; 0.00009, 5.000001 and unknown do not", () => {
    expect(met({ priceUsdc: "0.0001" }, "price_range")).toBe(true);
    expect(met({ priceUsdc: "5" }, "price_range")).toBe(true);
    expect(met({ priceUsdc: "5.000000" }, "price_range")).toBe(true);
    expect(met({ priceUsdc: "0.00009" }, "price_range")).toBe(false);
    expect(met({ priceUsdc: "5.000001" }, "price_range")).toBe(false);
    expect(met({ priceUsdc: null }, "price_range")).toBe(false);
  });

  it("x402_v2_challenge: the latest probe must be a healthy 402 carrying a v2 challenge", () => {
    expect(met({}, "x402_v2_challenge")).toBe(true);
    expect(met({ lastChallengeVersion: 1 }, "x402_v2_challenge")).toBe(false);
    expect(met({ lastStatusCode: 200 }, "x402_v2_challenge")).toBe(false);
    expect(met({ lastOutcome: "error", lastStatusCode: 503 }, "x402_v2_challenge")).toBe(false);
    expect(met({ lastOutcome: null, lastStatusCode: null, lastChallengeVersion: null }, "x402_v2_challenge")).toBe(false);
  });

  it("x402_v2_challenge: a needs_input answer after a challenge of the last hour keeps it met, an older one does not", () => {
    const refused = { lastOutcome: "needs_input", lastStatusCode: 422, lastProbeAt: new Date("2026-11-20T12:10:00Z") };
    expect(met({ ...refused, lastChallengeAt: new Date("2026-11-20T11:55:00Z") }, "x402_v2_challenge")).toBe(true);
    expect(met({ ...refused, lastChallengeAt: new Date("2026-11-20T11:05:00Z") }, "x402_v2_challenge")).toBe(false);
    expect(met({ ...refused, lastChallengeAt: null }, "x402_v2_challenge")).toBe(false);
    expect(met({ ...refused, lastChallengeVersion: 1 }, "x402_v2_challenge")).toBe(false);
  });

  it("in_catalog: nothing covered, or a covered listing no longer active, fails", () => {
    expect(byId(evaluateCriteria([])).in_catalog!.met).toBe(false);
    expect(evaluateCriteria([]).every((c) => !c.met)).toBe(true);
    expect(met({ active: false }, "in_catalog")).toBe(false);
  });
});

describe("a pattern's report", () => {
  it("fails a criterion when any covered listing fails it, naming the failing URLs and the worst value", () => {
    const reports = byId(
      evaluateCriteria([
        good({ url: "https://api.example.com/a", uptime7dPct: 99.44, priceUsdc: "0.002" }),
        good({ url: "https://api.example.com/b", uptime7dPct: 90, priceUsdc: "0.01" }),
        good({ url: "https://api.example.com/c", uptime7dPct: 80.04, priceUsdc: "0.001" }),
      ]),
    );
    expect(reports.uptime_7d).toMatchObject({
      met: false,
      observed: 80,
      failing_count: 2,
      failing: [
        { url: "https://api.example.com/b", method: "GET", observed: 90 },
        { url: "https://api.example.com/c", method: "GET", observed: 80 },
      ],
    });
    expect(reports.price_range).toMatchObject({ met: true, observed: "0.001 to 0.01", failing: [] });
    expect(reports.in_catalog).toMatchObject({ met: true, observed: 3 });
    expect(reports.clean_verdict).toMatchObject({ met: true, observed: "pay" });
  });

  it("fails clean_verdict when one covered listing is not clean, with the union of what keeps them off pay", () => {
    const r = byId(
      evaluateCriteria([
        good({ url: "https://api.example.com/a" }),
        good({ url: "https://api.example.com/b", warnings: ["wildcard_402"] }),
        good({ url: "https://api.example.com/c", warnings: ["wildcard_402", "proxy_markup"], delistReasons: ["ghost_listing"] }),
      ]),
    ).clean_verdict!;
    expect(r).toMatchObject({ met: false, observed: "wildcard_402, proxy_markup, ghost_listing", failing_count: 2 });
    expect(r.failing.map((f) => f.url)).toEqual(["https://api.example.com/b", "https://api.example.com/c"]);
  });

  it("caps the failing list and keeps the full count", () => {
    const many = Array.from({ length: 30 }, (_, i) => good({ url: `https://api.example.com/${i}`, probes7d: i }));
    const r = byId(evaluateCriteria(many)).probes_7d!;
    expect(r).toMatchObject({ met: false, observed: 0, failing_count: 20 });
    expect(r.failing).toHaveLength(20);
  });
});

describe("url patterns", () => {
  const scope = (s: string) => {
    const r = parseScope(s);
    if (!r.ok) throw new Error(r.message);
    return r.scope;
  };

  it("reads an endpoint, an origin and an origin with a path prefix", () => {
    expect(scope("https://API.example.com/v1/forecast?city=x")).toMatchObject({
      kind: "endpoint",
      url: "https://api.example.com/v1/forecast?city=x",
      host: "api.example.com",
    });
    expect(scope("https://api.example.com")).toMatchObject({ kind: "origin", prefix: "https://api.example.com/", pattern: "https://api.example.com/*" });
    expect(scope("https://api.example.com/*")).toMatchObject({ kind: "origin", prefix: "https://api.example.com/" });
    expect(scope("http://127.0.0.1:8080/v1/*")).toMatchObject({
      kind: "prefix",
      prefix: "http://127.0.0.1:8080/v1/",
      host: "127.0.0.1:8080",
      pattern: "http://127.0.0.1:8080/v1/*",
    });
    expect(scope("https://api.example.com/v1*")).toMatchObject({ kind: "prefix", prefix: "https://api.example.com/v1" });
  });

  it("refuses a * anywhere but the end, a query in a pattern, credentials and other schemes", () => {
    for (const bad of [
      "https://*.example.com/",
      "https://api.example.com/*/x",
      "https://api.example.com/v1?x=*",
      "ftp://api.example.com/*",
      "*",
      "https://u:p@api.example.com/x",
      "not a url",
    ]) {
      expect(parseScope(bad).ok, bad).toBe(false);
    }
  });
});

describe("the certificate name", () => {
  const valid = (name: string) => CertificateBody.safeParse({ url: "https://api.example.com/x", name }).success;

  it("takes 1 to 80 printable characters, counted as characters", () => {
    expect(valid("S")).toBe(true);
    expect(valid("x".repeat(80))).toBe(true);
    expect(valid("é".repeat(80))).toBe(true);
    expect(valid("天气".repeat(40))).toBe(true);
    expect(valid('Skycast <script>alert("x")</script> & Co')).toBe(true);
    expect(valid("")).toBe(false);
    expect(valid("   ")).toBe(false);
    expect(valid("x".repeat(81))).toBe(false);
  });

  it("refuses control characters and line breaks", () => {
    for (const bad of ["a\u0000b", "a\nb", "a\tb", "a\u202eb", "a\u2028b", "a\u007fb"]) expect(valid(bad), JSON.stringify(bad)).toBe(false);
  });
});
