import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { expect } from "vitest";
import { saveScreenshot } from "../helpers/screenshot.js";

export const CHROMIUM = "/usr/bin/chromium";
export const ARTIFACTS = join(process.cwd(), "test-artifacts", "browser");
// Locally the test needs Debian's chromium package; CI installs it (.ci/run), so there it must run.
export const runs = existsSync(CHROMIUM) || process.env.CI === "true";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
export const WIDTHS = [1280, 390] as const;

/** Headless Chromium in a container: no sandbox or GPU, and nothing that reaches the network on its own. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const launch = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });

/** A context per viewport width, with or without JavaScript. */
export const contextOf = (browser: Browser, width: number, javaScriptEnabled = true): Promise<BrowserContext> =>
  browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled });

/** Collects console errors and failed requests of every page opened through `watch`. */
export function problemLog() {
  const problems: string[] = [];
  return {
    problems,
    watch(page: Page, name: string): Page {
      page.on(
        "console",
        (m) => void (m.type() === "error" && !m.text().startsWith("Failed to load resource") && problems.push(`${name}: console ${m.text()}`)),
      );
      page.on("response", (r) => void (r.status() >= 400 && problems.push(`${name}: ${r.url()} answered ${r.status()}`)));
      page.on("requestfailed", (r) => void problems.push(`${name}: ${r.url()} ${r.failure()?.errorText ?? "failed"}`));
      return page;
    },
  };
}

/** axe-core's serious and critical violations on the page, as "rule: target" lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated, not added as a <script> element: the pages' Content-Security-Policy refuses inline scripts it does not know.
  await page.evaluate(AXE);
  const found = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as {
    violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
  };
  return found.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")}`));
}

/** How far the page is wider than its viewport (0: nothing overflows horizontally), and the widest offenders. */
export async function overflow(page: Page): Promise<{ by: number; offenders: string[] }> {
  return (await page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    const offenders = [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > width + 1 && !e.closest(".table-wrap, .scroll, pre"))
      .slice(0, 5).map((e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && typeof e.className === "string" ? "." + e.className.split(" ")[0] : ""));
    return { by: document.documentElement.scrollWidth - width, offenders };
  })()`)) as { by: number; offenders: string[] };
}

/** At each width: a full-page screenshot, then what overflows and axe's serious violations, as lines ([] when the page is clean). */
export async function checkPage(contexts: Record<number, BrowserContext>, url: string, shot: string, log: ReturnType<typeof problemLog>): Promise<string[]> {
  const found: string[] = [];
  for (const width of WIDTHS) {
    const page = log.watch(await contexts[width]!.newPage(), `${shot}@${width}`);
    const res = await page.goto(url, { waitUntil: "load" });
    expect(res?.status(), url).toBe(200);
    await saveScreenshot(page, { path: join(ARTIFACTS, `explorer-${shot}-${width}.png`), fullPage: true });
    const wide = await overflow(page);
    if (wide.by > 0) found.push(`${shot} at ${width} px: ${wide.by} px wider than the viewport (${wide.offenders.join(", ")})`);
    for (const v of await seriousViolations(page)) found.push(`${shot} at ${width} px: ${v}`);
    await page.close();
  }
  return found;
}
