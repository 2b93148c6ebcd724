import type { Page } from "playwright-core";

/**
 * Saves a screenshot, an artifact of the browser tests. Chromium under load now and then refuses a
 * capture ("Unable to capture screenshot"): one retry a moment later, then the error stands.
 */
export async function saveScreenshot(page: Page, options: NonNullable<Parameters<Page["screenshot"]>[0]>): Promise<void> {
  try {
    await page.screenshot(options);
  } catch {
    await page.waitForTimeout(500);
    await page.screenshot(options);
  }
}
