import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

const S = 1000;

/**
 * A moment in words relative to `now`: "12 s ago", "4 min ago", "3 h ago", "2 d ago", or
 * "in 5 min" for one ahead. Seconds up to 2 min, minutes up to 2 h, hours up to 2 days, then days:
 * no unit is ever read as "1" of itself, which hides whether it is 1 or 1.9.
 */
export function relativeWords(at: Date, now: Date): string {
  const ms = now.getTime() - at.getTime();
  const s = Math.round(Math.abs(ms) / S);
  const amount = s < 120 ? `${s} s` : s < 7200 ? `${Math.floor(s / 60)} min` : s < 172_800 ? `${Math.floor(s / 3600)} h` : `${Math.floor(s / 86_400)} d`;
  if (s === 0) return "just now";
  return ms >= 0 ? `${amount} ago` : `in ${amount}`;
}

/** The exact moment as people read it: "2025-03-01 14:05:09 UTC". */
export const exactTime = (at: Date): string => `${at.toISOString().slice(0, 19).replace("T", " ")} UTC`;

/**
 * A <time> saying `at` in relative words, its exact moment in `datetime`, `title` (hover) and a
 * span the layout's CSS shows on focus (tabindex, so keyboard and tap reach it; no script needed).
 * Screen readers read both. `never` without a moment.
 */
export function timeAt(at: Date | null, now: Date, never = "never"): HtmlEscapedString | Promise<HtmlEscapedString> {
  if (!at) return html`${never}`;
  const exact = exactTime(at);
  return html`<time class="rel" datetime="${at.toISOString()}" title="${exact}" tabindex="0">${relativeWords(at, now)}<span class="exact"> (${exact})</span></time>`;
}

/** The layout's CSS for timeAt: the exact moment hidden (yet read aloud) until the time has focus. */
export const TIME_STYLE = `
.rel{position:relative;text-decoration:underline dotted;cursor:help;white-space:nowrap}.rel .exact{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.rel:focus .exact{position:static;width:auto;height:auto;overflow:visible;clip:auto;white-space:normal;color:var(--muted)}
`;
