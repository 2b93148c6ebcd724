import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WARNING_GLOSSARY } from "@x402-lookout/contracts/glossary";
import { createApp, type App } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { HOUR } from "../../src/services/signals/constants.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { FAILING_HOURS, HOSTILE_SERVICE, HOSTILE_URL, latencyOf, PARTIAL_HOUR, seedEndpoint, type EndpointSeed } from "./endpoint-seed.js";

let ctx: TestContext;
let app: App;
let seed: EndpointSeed;
const page = async (path: string) => {
  const res = await app.request(path);
  return { res, text: await res.text() };
};
/** Start of hour h counting back from the current one, as the bars name it. */
const hourIso = (h: number) => new Date(Math.floor(ctx.clock.now().getTime() / HOUR) * HOUR - h * HOUR).toISOString();

/** Tags balanced and no stray markup characters in text: enough to say an SVG is well-formed XML. */
function wellFormed(xml: string): boolean {
  const stack: string[] = [];
  for (const m of xml.matchAll(/<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|<|&(?!(?:amp|lt|gt|quot|#39);)/g)) {
    if (m[2] === undefined) return false;
    if (m[1]) {
      if (stack.pop() !== m[2]) return false;
    } else if (!m[4]) stack.push(m[2]);
  }
  return stack.length === 0;
}

beforeAll(async () => {
  ctx = await createTestContext({ TRUST_PROXY: "true" });
  app = createApp({ ctx, routes: productRoutes });
  seed = await seedEndpoint(ctx);
});
afterAll(() => ctx.close());

describe("the endpoint page", () => {
  it("draws one bar per hour for 7 days, the failing hours as the seeded probes failed", async () => {
    const { res, text } = await page(`/endpoints/${seed.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/^public, max-age=60/);
    const svg = /<svg class="uptime-bar"[^>]*>[\s\S]*?<\/svg>/.exec(text)![0];
    expect(svg).toMatch(
      /role="group" aria-label="Uptime by hour over the last 168 hours, oldest first: 162 hours all healthy, 1 with some failures, 5 with every probe failed, 0 without probes"/,
    );
    const bars = [...svg.matchAll(/<rect class="h-(\w+)"[^>]*data-hour="([^"]+)" data-probes="(\d+)" data-healthy="(\d+)"><title>([^<]+)<\/title>/g)];
    expect(bars).toHaveLength(168);
    expect(bars.filter((b) => b[1] === "down").map((b) => b[2])).toEqual(FAILING_HOURS.map(hourIso).reverse());
    expect(bars.filter((b) => b[1] === "partial").map((b) => [b[2], b[3], b[4]])).toEqual([[hourIso(PARTIAL_HOUR), "3", "2"]]);
    expect(bars[0]![2]).toBe(hourIso(167));
    const newest = `${hourIso(0).slice(0, 10)} 12:00 UTC: 3 of 3 probes healthy (100%), all healthy; latency p50 ${latencyOf(1)} ms, p90 ${latencyOf(2)} ms`;
    expect(bars[167]![5]).toBe(newest);
    const healthy = seed.probes.filter((p) => p.healthy).length;
    expect(text).toContain(`<strong id="uptime-7d">${Math.round((1000 * healthy) / seed.probes.length) / 10}%</strong>`);
  });

  it("makes each hour's bar a named image the keyboard reaches (one tab stop, the newest hour) and shows its details below", async () => {
    const { text } = await page(`/endpoints/${seed.id}`);
    const svg = /<svg class="uptime-bar"[^>]*>[\s\S]*?<\/svg>/.exec(text)![0];
    const bars = [
      ...svg.matchAll(/<rect class="h-\w+"[^>]* role="img" aria-label="([^"]+)" tabindex="(-1|0)" data-hour="[^"]+"[^>]*><title>([^<]+)<\/title>/g),
    ];
    expect(bars).toHaveLength(168);
    expect(bars.map((b) => b[2]).filter((t) => t === "0")).toHaveLength(1);
    expect(bars[167]![2]).toBe("0");
    for (const b of bars) expect(b[1]).toBe(b[3]);
    expect(bars.filter((b) => b[1]!.includes("some failed")).map((b) => b[1]!.split(";")[0])).toEqual([
      `${hourIso(PARTIAL_HOUR).slice(0, 10)} ${hourIso(PARTIAL_HOUR).slice(11, 16)} UTC: 2 of 3 probes healthy (66.7%), some failed`,
    ]);
    // Without the script, the newest hour's details are already there; the script follows focus and taps.
    expect(text).toContain(`<p class="bar-detail" id="uptime-detail" aria-live="polite">${bars[167]![1]}</p><script>`);
  });

  it("says its times in relative words, each a focusable <time> holding the exact moment", async () => {
    const { text } = await page(`/endpoints/${seed.id}`);
    const certIssued = new Date(ctx.clock.now().getTime() - 2 * 86_400_000);
    expect(text).toContain(
      `issued <time class="rel" datetime="${certIssued.toISOString()}" title="${certIssued.toISOString().slice(0, 19).replace("T", " ")} UTC" tabindex="0">2 d ago<span class="exact">`,
    );
    expect(text).toMatch(/valid until <time class="rel" datetime="[^"]+" title="[^"]+" tabindex="0">in 28 d</);
    expect(text).toMatch(/<th scope="row">listed since<\/th><td><time class="rel" datetime="[^"]+"[^>]*>\d+ (s|min|h|d) ago</);
    expect(text).toMatch(/Observed <time class="rel"[^>]*>just now</);
    expect(text).not.toMatch(/>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/); // no raw ISO time as text
  });

  it("plots p50 and p90 by hour at the seeded latencies", async () => {
    const { text } = await page(`/endpoints/${seed.id}`);
    const svg = /<svg class="latency-chart"[^>]*>[\s\S]*?<\/svg>/.exec(text)![0];
    expect(svg).toContain(`role="img"`);
    const top = Number(/data-max="(\d+)"/.exec(svg)![1]);
    const points = (cls: string) => [...svg.matchAll(new RegExp(`<polyline class="${cls}" points="([^"]+)"`, "g"))].flatMap((m) => m[1]!.split(" "));
    // Back from pixels to ms: the plot is 174 px tall from y = 12, and 0 ms is at its bottom.
    const ms = (p: string) => ((186 - Number(p.split(",")[1])) / 174) * top;
    const expected = (h: number, rank: number) => latencyOf(3 * h + rank);
    const p50 = points("p50");
    const p90 = points("p90");
    expect(p50).toHaveLength(168);
    expect(p90).toHaveLength(168);
    p50.forEach((p, j) => expect(ms(p)).toBeCloseTo(expected(167 - j, 1), 0));
    p90.forEach((p, j) => expect(ms(p)).toBeCloseTo(expected(167 - j, 2), 0));
    expect(svg).toMatch(/aria-label="Latency by hour over the last 168 hours, 168 hours timed: p50 from 20 to 39 ms, p90 from 30 to 49 ms"/);
    const avg = Math.round(seed.probes.reduce((n, p) => n + p.latency, 0) / seed.probes.length);
    expect(text).toContain(`<strong id="latency-avg">${avg} ms</strong>`);
  });

  it("shows the verdict the free trial answers, each warning explained from the glossary and linked to /spec", async () => {
    const res = await app.request("/api/v1/preflight-trial", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.7" },
      body: JSON.stringify({ url: seed.url }),
    });
    expect(res.status).toBe(200);
    const trial = (await res.json()) as { ok: boolean; recommended_action: string; warnings: string[] };
    expect(trial.warnings.length).toBeGreaterThan(0);
    const { text } = await page(`/endpoints/${seed.id}`);
    expect(text).toContain(`data-action="${trial.recommended_action}" data-ok="${trial.ok}"`);
    expect([...text.matchAll(/<dt id="w-([a-z0-9_]+)">/g)].map((m) => m[1])).toEqual(trial.warnings);
    for (const code of trial.warnings as (keyof typeof WARNING_GLOSSARY)[]) {
      expect(text).toContain(
        `<a href="/spec#code-${code}"><code>${code}</code></a> ${WARNING_GLOSSARY[code].title}</dt><dd>${WARNING_GLOSSARY[code].meaning}</dd>`,
      );
    }
  });

  it("lists status codes, quotes, flag spans, the certificate and the paid routes with prices", async () => {
    const { text } = await page(`/endpoints/${seed.id}`);
    const failed = seed.probes.filter((p) => !p.healthy).length;
    expect(text).toContain(
      `<tr data-code="402"><td><code>402</code></td><td>payment required (the healthy answer)</td><td class="num">${seed.probes.length - failed}</td>`,
    );
    expect(text).toContain(`<tr data-code="503"><td><code>503</code></td><td>server error</td><td class="num">${failed}</td>`);
    expect(text).toMatch(/<section id="quotes">[\s\S]*15000000 <span class="muted">atomic[\s\S]*10000 <span class="muted">atomic/);
    expect(text).toContain(`<tr class="flagged"><td>2026-11-20</td><td><code>suspicious_high_price</code> </td><td>flagged now</td></tr>`);
    expect(text).toContain(
      `<tr class="recovered"><td>2026-11-10 to 2026-11-11</td><td><code>dead</code> <code>mostly_dead</code> </td><td>recovered</td></tr>`,
    );
    expect(text).toContain(`<a href="/verified/7b0c2a3e-1d4f-4a5b-8c6d-9e0f1a2b3c4d">Skycast Forecast</a>`);
    expect(text).toContain(`<a href="/api/v1/forensics">`);
    expect(text).toMatch(/<code>POST \/api\/v1\/forensics<\/code>, <span class="price">0\.001 USDC<\/span>/);
    expect(text).toMatch(/<code>POST \/api\/v1\/alternatives<\/code>, <span class="price">0\.005 USDC<\/span>/);
    expect(text).toMatch(/<code>POST \/api\/v1\/watch<\/code>, <span class="price">0\.01 USDC<\/span>/);
    expect(text).toContain(`[![7-day uptime](http://lookout.test/badges/endpoints/${seed.id}/uptime.svg)](http://lookout.test/endpoints/${seed.id})`);
    expect(text).toContain(
      `&lt;a href=&quot;http://lookout.test/endpoints/${seed.id}&quot;&gt;&lt;img src=&quot;http://lookout.test/badges/endpoints/${seed.id}/verdict.svg&quot;`,
    );
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    for (const [path, status] of [
      ["/endpoints/999999", 404],
      ["/endpoints/abc", 400],
      ["/endpoints/0", 400],
      ["/endpoints/01", 400],
      ["/endpoints/1234567890123456789", 400],
      ["/badges/endpoints/999999/uptime.svg", 404],
      ["/badges/endpoints/-1/verdict.svg", 400],
    ] as const) {
      const res = await app.request(path);
      expect(res.status, path).toBe(status);
      expect(res.headers.get("cache-control"), path).toBe("no-store");
    }
  });

  it("escapes a hostile service name and URL on the page and in the badge", async () => {
    const { res, text } = await page(`/endpoints/${seed.hostile}`);
    expect(res.status).toBe(200);
    expect(text).not.toContain(HOSTILE_SERVICE);
    expect(text).not.toContain(`"><svg/onload`);
    expect(text).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    const svg = await (await app.request(`/badges/endpoints/${seed.hostile}/verdict.svg`)).text();
    expect(wellFormed(svg)).toBe(true);
    expect(svg).toContain(HOSTILE_URL.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;"));
  });
});

describe("the endpoint badges", () => {
  it("are well-formed SVG with the page's numbers, cached five minutes with an ETag and the certificate badges' headers", async () => {
    const { text } = await page(`/endpoints/${seed.id}`);
    const uptime = /<strong id="uptime-7d">([\d.]+%)<\/strong>/.exec(text)![1]!;
    const latency = /<strong id="latency-avg">(\d+ ms)<\/strong>/.exec(text)![1]!;
    const action = /data-action="(\w+)"/.exec(text)![1]!.replace("_", " ");
    for (const [kind, value] of [
      ["verdict", action],
      ["uptime", uptime],
      ["latency", latency],
    ]) {
      const res = await app.request(`/badges/endpoints/${seed.id}/${kind}.svg`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
      expect(res.headers.get("cache-control")).toMatch(/^public, max-age=300\b/);
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      const svg = await res.text();
      expect(wellFormed(svg), kind).toBe(true);
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]* role="img" aria-label="[^"]+">\n<title>/);
      expect(svg).toContain(`<text x="`);
      expect(svg).toMatch(new RegExp(`>${value}</text>`));
      const tag = res.headers.get("etag")!;
      expect(tag).toMatch(/^"[^"]+"$/);
      const again = await app.request(`/badges/endpoints/${seed.id}/${kind}.svg`, { headers: { "if-none-match": tag } });
      expect(again.status).toBe(304);
      expect(again.headers.get("cache-control")).toMatch(/^public, max-age=300\b/);
    }
  });
});
