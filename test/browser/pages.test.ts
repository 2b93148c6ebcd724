import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiPath } from "../../src/http/openapi.js";
import { body } from "../helpers/http.js";
import { x402PayingFetch } from "../helpers/x402-payer.js";
import { startDemoScenario, type DemoScenario } from "../discovery/demo-scenario.js";
import { allRoutes, postJson } from "../discovery/lookout-service.js";
import { saveScreenshot } from "../helpers/screenshot.js";
import { ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, runs } from "./explorer-browser.js";

if (!runs) console.warn(`browser test skipped: ${CHROMIUM} is missing (apt-get install -y chromium); it always runs with CI=true`);

let demo: DemoScenario;
let browser: BrowserContext;
let profile: string;
let cert: { certId: string; pageUrl: string; badgeUrl: string };
const problems: string[] = [];

/** Opens a page, fails on console errors and failed requests, and saves a full-page screenshot. */
async function open(url: string, shot: string, fullPage = true): Promise<Page> {
  const page = await browser.newPage();
  page.on("console", (m) => void (m.type() === "error" && !m.text().startsWith("Failed to load resource") && problems.push(`${shot}: console ${m.text()}`)));
  page.on("response", (r) => void (r.status() >= 400 && problems.push(`${shot}: ${r.url()} answered ${r.status()}`)));
  page.on("requestfailed", (r) => void problems.push(`${shot}: ${r.url()} ${r.failure()?.errorText ?? "failed"}`));
  const res = await page.goto(url, { waitUntil: "load" });
  expect(res?.status(), url).toBe(200);
  await saveScreenshot(page, { path: join(ARTIFACTS, `${shot}.png`), fullPage });
  return page;
}

describe.skipIf(!runs)("pages in headless Chromium", () => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    demo = await startDemoScenario();
    const { svc, healthy } = demo;
    // Skycast's payTo, the devnet's funded demo merchant, buys its own certificate.
    const res = await x402PayingFetch(svc.devnet.demoMerchant.privateKey, { spendCapUsd: "$5" })(
      `${svc.url}/api/v1/verified`,
      postJson({ url: healthy.url, name: `${healthy.serviceName} <current>` }),
    );
    expect(res.status).toBe(200);
    cert = await body(res);
    profile = mkdtempSync(join(tmpdir(), "lookout-chromium-"));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 900 },
      args: CHROMIUM_ARGS,
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it("the landing page lists every route", async () => {
    const page = await open(`${demo.svc.url}/`, "landing");
    expect(await page.locator("h1").first().textContent()).toBe("x402 Lookout");
    const rows = await page.locator("table tbody tr td:first-child").allTextContents();
    expect(rows).toEqual(allRoutes.map((d) => `${d.method.toUpperCase()} ${openApiPath(d.path)}`));
    await page.close();
  });

  it("every paid route's reference page shows its price, challenge and schema; /spec has a section per route", async () => {
    for (const def of allRoutes.filter((d) => d.price !== null && d.method === "post")) {
      const page = await open(`${demo.svc.url}${def.path}`, `reference-${def.id}`, false);
      expect(await page.locator("h1").textContent(), def.id).toBe(def.title);
      const text = (await page.locator("main").textContent()) ?? "";
      expect(text, def.id).toContain(`${def.price} USDC`);
      expect(text, def.id).toContain("Payment (x402 v2)");
      expect(text, def.id).toContain('"x402Version": 2');
      if (Number(def.price) >= 1) expect(text, def.id).toContain("maxAmountPerPayment");
      await page.close();
    }
    const spec = await open(`${demo.svc.url}/spec`, "spec", false);
    for (const def of allRoutes) expect(await spec.locator(`h2[id="${def.id}"]`).count(), def.id).toBe(1);
    await spec.close();
  });

  it("the verified page shows the live state and evidence, and its badge renders", async () => {
    const page = await open(cert.pageUrl, "verified-page");
    expect(await page.locator("h1").textContent()).toBe(`${demo.healthy.serviceName} <current>`);
    expect(await page.locator("#state").textContent()).toContain("Verified.");
    expect(await page.locator("#holder").textContent()).toContain(`paid to ${demo.healthy.payTo}`);
    expect(await page.locator("#criteria tbody tr").count()).toBe(8);
    expect(await page.locator("#criteria").textContent()).not.toContain("not met");
    expect(await page.locator("#evidence").textContent()).toContain(demo.healthy.url);
    const size = await page.locator("#badge").evaluate((img) => {
      const i = img as unknown as { complete: boolean; naturalWidth: number; naturalHeight: number };
      return [i.complete, i.naturalWidth, i.naturalHeight] as const;
    });
    expect(size).toEqual([true, expect.any(Number), 20]);
    expect(size[1]).toBeGreaterThan(100);
    await page.close();
  });

  it("the badge renders on its own as an SVG image", async () => {
    // A full-page screenshot measures an HTML body, which an SVG document does not have.
    const page = await open(cert.badgeUrl, "verified-badge", false);
    // An SVG document: read it through the DOM (locators target HTML documents).
    expect(await page.evaluate("document.documentElement.namespaceURI")).toBe("http://www.w3.org/2000/svg");
    const payTo = demo.healthy.payTo;
    expect(await page.evaluate("[...document.querySelectorAll('text')].map((t) => t.textContent)")).toEqual([
      `${demo.healthy.serviceName} <current>`,
      `${new URL(demo.healthy.url).host} · ${payTo.slice(0, 6)}…${payTo.slice(-4)}`,
      "x402 verified",
    ]);
    const [width, height] = (await page.evaluate("[document.documentElement.getBBox().width, document.documentElement.getBBox().height]")) as [number, number];
    expect(height).toBe(20);
    expect(width).toBeGreaterThan(100);
    await saveScreenshot(page, { path: join(ARTIFACTS, "verified-badge-only.png"), clip: { x: 0, y: 0, width, height } });
    await page.close();
  });

  it("the dataset page renders", async () => {
    const page = await open(`${demo.svc.url}/dataset`, "dataset");
    expect(await page.locator("h1").textContent()).toBe("Public dataset");
    await page.close();
  });

  it("loaded every page without console errors or failed requests", () => {
    if (problems.length) console.warn(problems);
    expect(problems).toEqual([]);
  });
});
