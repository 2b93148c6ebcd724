import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WARNING_GLOSSARY } from "@x402-lookout/contracts/glossary";
import type { WarningCode } from "@x402-lookout/contracts/codes";
import { productRoutes } from "../../src/http/routes/index.js";
import type { DemoEndpoint, DemoFleet } from "../../src/demo/index.js";
import { startProbedDemoFleet } from "../helpers/demo-fleet.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import { ARTIFACTS, checkPage, contextOf, launch, problemLog, runs, seriousViolations, WIDTHS } from "./explorer-browser.js";
import { saveScreenshot } from "../helpers/screenshot.js";
import { seedPaidEvidence } from "../explorer/paid-volume-seed.js";

if (!runs) console.warn("explorer browser test skipped: /usr/bin/chromium is missing (apt-get install -y chromium); it always runs with CI=true");

let svc: PaidService;
let fleet: DemoFleet;
let browser: Browser;
let noScript: BrowserContext;
const contexts: Record<number, BrowserContext> = {};
const log = problemLog();
const target: Record<"decoy" | "dead", { endpoint: DemoEndpoint; id: number; warnings: string[] }> = {} as never;

const open = async (path: string, name: string, context = contexts[1280]!): Promise<Page> => {
  const page = log.watch(await context.newPage(), name);
  const res = await page.goto(`${svc.url}${path}`, { waitUntil: "load" });
  expect(res?.status(), path).toBe(200);
  return page;
};
const rowUrls = (page: Page) => page.locator("#endpoints tbody tr td:first-child a.url").allTextContents();
const title = (code: string) => WARNING_GLOSSARY[code as WarningCode].title;

describe.skipIf(!runs)("the explorer in headless Chromium, against the service with the probed demo fleet", () => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    svc = await startPaidService({ routes: productRoutes, env: { ALLOW_PRIVATE_TARGETS: "true" } });
    fleet = await startProbedDemoFleet(svc.ctx, svc.devnet);
    await svc.ctx.services.delist.recordFlags();
    for (const [name, kind] of [
      ["decoy", "decoy"],
      ["dead", "dead_5xx"],
    ] as const) {
      const endpoint = fleet.endpoints.find((e) => e.kind === kind)!;
      const row = await svc.ctx.db.db
        .selectFrom("listings as l")
        .innerJoin("signal_snapshots as s", "s.listing_id", "l.id")
        .select(["l.id", "s.feed"])
        .where("l.url", "=", endpoint.url)
        .where("l.method", "=", endpoint.method)
        .executeTakeFirstOrThrow();
      // The pages explain every code that fired: the entry's reason_codes (decision 0045).
      target[name] = { endpoint, id: Number(row.id), warnings: (row.feed as { reason_codes: string[] }).reason_codes };
    }
    // Chain evidence on the dead one (decision 0052): its paid volume and a payer's failure report show on its page.
    await seedPaidEvidence(svc.ctx, target.dead.id);
    browser = await launch();
    for (const width of WIDTHS) contexts[width] = await contextOf(browser, width);
    noScript = await contextOf(browser, 1280, false);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await fleet?.stop();
    await svc?.close();
  });

  it("/ shows the live figures of the stored verdicts, and its flag links lead to the decoy", async () => {
    const page = await open("/", "landing");
    const active = await svc.ctx.db.db
      .selectFrom("listings")
      .select((e) => e.fn.countAll<number>().as("n"))
      .where("is_active", "=", true)
      .executeTakeFirstOrThrow();
    expect(Number(await page.locator("#watched").textContent())).toBe(Number(active.n));
    expect(Number(await page.locator("#flagged").textContent())).toBeGreaterThanOrEqual(2);
    expect(Number(await page.locator("#probes").textContent())).toBeGreaterThan(0);
    expect(await page.locator("#verdict-age").textContent()).toMatch(/^(\d+ (s|min) ago|just now) \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)$/);
    await page.getByRole("link", { name: title("decoy_price_extreme") }).click();
    await page.waitForURL(/\/endpoints\?warning=decoy_price_extreme$/);
    expect(await rowUrls(page)).toContain(`${target.decoy.endpoint.method} ${target.decoy.endpoint.url}`);
    await page.locator(`#endpoints tr[data-id="${target.decoy.id}"] a.url`).click();
    await page.waitForURL(new RegExp(`/endpoints/${target.decoy.id}$`));
    await page.close();
  });

  it("the check form answers in place with JavaScript (the trial route) and on /check without it", async () => {
    const page = await open("/", "check-js");
    await page.locator("#check-url").fill(target.decoy.endpoint.url);
    const posted = page.waitForResponse((r) => r.url().endsWith("/api/v1/preflight-trial") && r.request().method() === "POST");
    await page.getByRole("button", { name: "Check" }).click();
    expect((await posted).status()).toBe(200);
    await expect.poll(() => page.locator("#check-result").textContent()).toContain("Flagged: skip");
    expect(await page.locator("#check-result").textContent()).toContain(title("decoy_price_extreme"));
    expect(new URL(page.url()).pathname).toBe("/");
    await saveScreenshot(page, { path: join(ARTIFACTS, "explorer-check-js.png"), fullPage: true });
    await page.close();

    const plain = await open("/", "check-no-js", noScript);
    await plain.locator("#check-url").fill(target.dead.endpoint.url);
    await plain.getByRole("button", { name: "Check" }).click();
    await plain.waitForURL(/\/check\?url=/);
    const answer = (await plain.locator("#check-result").textContent()) ?? "";
    expect(answer).toContain("Flagged:");
    for (const code of target.dead.warnings) expect(answer).toContain(title(code));
    await saveScreenshot(plain, { path: join(ARTIFACTS, "explorer-check-no-js.png"), fullPage: true });
    await plain.close();
  });

  it("/endpoints lists every endpoint, and its search and filters narrow the list", async () => {
    const page = await open("/endpoints", "list");
    const all = await rowUrls(page);
    const active = await svc.ctx.db.db
      .selectFrom("listings")
      .select((e) => e.fn.countAll<number>().as("n"))
      .where("is_active", "=", true)
      .executeTakeFirstOrThrow();
    expect(all.length).toBe(Math.min(50, Number(active.n)));
    await page.locator('input[name="q"]').fill(target.decoy.endpoint.serviceName);
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/[?&]q=/);
    const searched = await rowUrls(page);
    expect(searched).toContain(`${target.decoy.endpoint.method} ${target.decoy.endpoint.url}`);
    expect(searched.length).toBeLessThan(all.length);
    await page.locator('input[name="q"]').fill("");
    await page.locator('select[name="warning"]').selectOption("dead");
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/[?&]warning=dead/);
    const dead = await rowUrls(page);
    expect(dead).toContain(`${target.dead.endpoint.method} ${target.dead.endpoint.url}`);
    expect(dead).not.toContain(`${target.decoy.endpoint.method} ${target.decoy.endpoint.url}`);
    expect(dead.length).toBeLessThan(all.length);
    await page.close();
  });

  it("the decoy's and the dead endpoint's pages explain each warning and draw the uptime bar from their hourly probes", async () => {
    for (const name of ["decoy", "dead"] as const) {
      const { id, endpoint, warnings } = target[name];
      const page = await open(`/endpoints/${id}`, `endpoint-${name}`);
      const text = (await page.locator("main").textContent()) ?? "";
      expect(text).toContain(endpoint.url);
      for (const code of warnings) expect(text, `${name}: ${code}`).toContain(WARNING_GLOSSARY[code as WarningCode].meaning);
      // Each hour's bar carries the probes it was drawn from: together they are the listing's hourly rollup.
      const bars = (await page.evaluate(
        `[...document.querySelectorAll("#uptime svg rect[data-probes]")].map((r) => [Number(r.dataset.probes), Number(r.dataset.healthy)])`,
      )) as [number, number][];
      const rollup = await svc.ctx.db.db
        .selectFrom("probe_hourly")
        .select((e) => [e.fn.sum<number>("probes").as("probes"), e.fn.sum<number>("healthy").as("healthy")])
        .where("listing_id", "=", id)
        .executeTakeFirstOrThrow();
      const sum = (k: 0 | 1) => bars.reduce((a, b) => a + b[k], 0);
      expect([sum(0), sum(1)], name).toEqual([Number(rollup.probes), Number(rollup.healthy)]);
      expect(sum(0), name).toBeGreaterThan(0);
      // The decoy answers its 402 every time; the dead endpoint never does.
      expect(sum(1), name).toBe(name === "decoy" ? sum(0) : 0);
      expect(await page.locator("#latency svg").count(), name).toBeGreaterThanOrEqual(1);
      await page.close();
    }
  });

  it("a badge loads as an image", async () => {
    for (const kind of ["verdict", "uptime", "latency"]) {
      const res = await fetch(`${svc.url}/badges/endpoints/${target.dead.id}/${kind}.svg`);
      expect(res.status, kind).toBe(200);
      expect(res.headers.get("content-type"), kind).toMatch(/^image\/svg\+xml/);
    }
    const page = await open("/", "badge-host");
    // Evaluated in the page (a string: the test's own types have no DOM).
    const size = (await page.evaluate(`(async () => {
      const img = new Image();
      img.src = "/badges/endpoints/${target.dead.id}/uptime.svg";
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    })()`)) as [number, number];
    expect(size[0]).toBeGreaterThan(40);
    expect(size[1]).toBeGreaterThan(10);
    await page.close();
  });

  it("every page: no serious axe-core violation, nothing overflows at 1280 and 390 px, screenshots saved", async () => {
    const pages: [string, string][] = [
      ["/", "landing"],
      [`/check?url=${encodeURIComponent(target.decoy.endpoint.url)}`, "check"],
      ["/endpoints", "list"],
      ["/endpoints?warning=dead", "list-dead"],
      ["/endpoints?sort=volume", "list-volume"],
      [`/endpoints/${target.decoy.id}`, "endpoint-decoy"],
      [`/endpoints/${target.dead.id}`, "endpoint-dead"],
    ];
    const list = await open("/endpoints", "links");
    for (const [kind, path] of [
      ["service", "/services/"],
      ["provider", "/providers/"],
    ]) {
      const href = await list.locator(`#endpoints a[href^="${path}"]`).first().getAttribute("href");
      pages.push([href!, kind!]);
    }
    await list.close();
    const found: string[] = [];
    for (const [path, shot] of pages) found.push(...(await checkPage(contexts, `${svc.url}${path}`, shot, log)));
    expect(found).toEqual([]);
  }, 120_000);

  it("the landing page, the list and an endpoint page carry a Content-Security-Policy, report no violation, and their own scripts run", async () => {
    const context = contexts[1280]!;
    for (const [path, name] of [
      ["/", "csp-landing"],
      ["/endpoints", "csp-list"],
      [`/endpoints/${target.decoy.id}`, "csp-endpoint"],
    ] as const) {
      const page = log.watch(await context.newPage(), name);
      // Listening from before the page's first script (an init script is not subject to the policy).
      await page.addInitScript(
        "window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI))",
      );
      const res = await page.goto(`${svc.url}${path}`, { waitUntil: "load" });
      expect(res?.headers()["content-security-policy"], path).toMatch(/default-src 'none'; script-src 'sha256-/);
      // A violation event is dispatched asynchronously: give it a turn before reading.
      await page.waitForTimeout(200);
      expect(await page.evaluate("window.__violations"), path).toEqual([]);
      if (path === "/") {
        // The check form's script enhanced the form: it answers in place (also the test above).
        await page.locator("#check-url").fill(target.decoy.endpoint.url);
        await page.getByRole("button", { name: "Check" }).click();
        await expect.poll(() => page.locator("#check-result").textContent()).toContain("Flagged: skip");
      }
      // The endpoint page's copy script showed its buttons (hidden until it runs).
      if (name === "csp-endpoint") expect(await page.locator("button.copy").first().getAttribute("hidden")).toBeNull();
      expect(await page.evaluate("window.__violations"), path).toEqual([]);
      await page.close();
    }
  });

  it("dark scheme, keyboard and tap at 390 and 1280 px: the colours change, the policy holds, axe finds nothing serious, bars and times show their details", async () => {
    const endpoint = await open(`/endpoints/${target.dead.id}`, "provider-link");
    const provider = await endpoint.locator('.facts a[href^="/providers/"]').getAttribute("href");
    await endpoint.close();
    const found: string[] = [];
    for (const width of WIDTHS) {
      for (const [path, name] of [
        [`/endpoints/${target.dead.id}`, "endpoint"],
        [provider!, "provider"],
        ["/", "landing"],
      ] as const) {
        const page = log.watch(await contexts[width]!.newPage(), `dark-${name}@${width}`);
        await page.addInitScript(
          "window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI))",
        );
        const background = () => page.evaluate("getComputedStyle(document.body).backgroundColor");
        expect((await page.goto(`${svc.url}${path}`, { waitUntil: "load" }))?.status(), path).toBe(200);
        expect(await background(), path).toBe("rgb(255, 255, 255)");
        await page.emulateMedia({ colorScheme: "dark" });
        expect(await background(), path).toBe("rgb(13, 17, 23)");
        // The favicon the page links loads (as an image, under the page's img-src 'self').
        expect(await page.evaluate(`fetch(document.querySelector('link[rel="icon"]').href).then((r) => r.status)`)).toBe(200);
        await saveScreenshot(page, { path: join(ARTIFACTS, `explorer-dark-${name}-${width}.png`), fullPage: true });
        for (const v of await seriousViolations(page)) found.push(`dark ${name} at ${width} px: ${v}`);
        // A relative time shows its exact moment once focused (keyboard) or tapped.
        const time = page.locator("time.rel").first();
        await time.focus();
        expect(await page.evaluate("document.activeElement.querySelector('.exact').getBoundingClientRect().width"), path).toBeGreaterThan(20);
        if (name === "endpoint") {
          const newest = page.locator('#uptime-bar rect[tabindex="0"]');
          await newest.focus();
          await page.keyboard.press("ArrowLeft");
          const previous = page.locator("#uptime-bar rect[data-hour]").nth(166);
          expect(await page.evaluate("document.activeElement.dataset.hour")).toBe(await previous.getAttribute("data-hour"));
          expect(await page.locator("#uptime-detail").textContent()).toBe(await previous.getAttribute("aria-label"));
          expect(await previous.getAttribute("tabindex")).toBe("0");
          const tapped = page.locator("#uptime-bar rect[data-hour]").nth(10);
          await tapped.click();
          expect(await page.locator("#uptime-detail").textContent()).toBe(await tapped.getAttribute("aria-label"));
        }
        if (name === "endpoint") {
          expect(await page.locator("#settled-30d").textContent()).toBe("17");
          expect(await page.locator("#payer-reports tr.report-failed").first().isVisible()).toBe(true);
        }
        if (name === "provider") expect(await page.locator("#incidents").textContent()).toContain(target.dead.endpoint.url);
        await page.waitForTimeout(200);
        expect(await page.evaluate("window.__violations"), path).toEqual([]);
        await page.close();
      }
    }
    expect(found).toEqual([]);
  }, 120_000);

  it("loaded every page without console errors or failed requests", () => {
    expect(log.problems).toEqual([]);
  });
});
