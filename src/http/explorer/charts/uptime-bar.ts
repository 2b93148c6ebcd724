import { html } from "hono/html";
import type { HourBucket } from "../../../services/index.js";
import { inlineScript } from "../../pages/csp.js";
import type { Html } from "../../pages/layout.js";

const BAR_W = 4;
const GAP = 1;
const H = 34;

/** An hour's state: every probe healthy, some, none, or no probe at all. */
export type HourState = "up" | "partial" | "down" | "none";
export const hourState = (b: Pick<HourBucket, "probes" | "healthy">): HourState =>
  b.probes === 0 ? "none" : b.healthy === b.probes ? "up" : b.healthy === 0 ? "down" : "partial";

// Colour and pattern: a failing hour is hatched and a partial one dotted, so no state is told by colour alone.
const FILL: Record<HourState, string> = { up: "#2da44e", partial: "url(#ub-dots)", down: "url(#ub-hatch)", none: "#d0d7de" };
const WORDS: Record<HourState, string> = { up: "all healthy", partial: "some failed", down: "all failed", none: "no probes" };

const hourText = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
const share = (b: HourBucket) => (b.probes === 0 ? "" : ` (${Math.round((1000 * b.healthy) / b.probes) / 10}%)`);
const latency = (b: HourBucket) => (b.p50Ms === null ? "" : `; latency p50 ${b.p50Ms} ms, p90 ${b.p90Ms} ms`);

/** One hour in words, the latency chart's figures of that hour too: what a bar says on hover, focus and tap. */
export const hourLabel = (b: HourBucket): string =>
  `${hourText(b.hour)}: ${b.healthy} of ${b.probes} probes healthy${share(b)}, ${WORDS[hourState(b)]}${latency(b)}`;

/** What the bar says in words: the screen reader's text and the figure's title. */
export function uptimeBarLabel(hours: readonly HourBucket[]): string {
  const n = (s: HourState) => hours.filter((b) => hourState(b) === s).length;
  return `Uptime by hour over the last ${hours.length} hours, oldest first: ${n("up")} hours all healthy, ${n("partial")} with some failures, ${n("down")} with every probe failed, ${n("none")} without probes`;
}

/**
 * One rect per hour, oldest on the left, each a focusable image named by its hour's details. One
 * tab stop (the newest hour, a roving tabindex): the arrow keys, Home and End move between hours,
 * so 168 bars do not stand between a keyboard and the rest of the page.
 */
export function uptimeBar(hours: readonly HourBucket[]): Html {
  const w = hours.length * (BAR_W + GAP) - GAP;
  const label = uptimeBarLabel(hours);
  const bars = hours.map((b, i) => {
    const s = hourState(b);
    const title = hourLabel(b);
    return html`<rect class="h-${s}" x="${i * (BAR_W + GAP)}" y="${s === "none" ? H - 8 : 0}" width="${BAR_W}" height="${s === "none" ? 8 : H}" fill="${FILL[s]}" role="img" aria-label="${title}" tabindex="${i === hours.length - 1 ? 0 : -1}" data-hour="${b.hour}" data-probes="${b.probes}" data-healthy="${b.healthy}"><title>${title}</title></rect>`;
  });
  return html`<svg class="uptime-bar" id="uptime-bar" width="${w}" height="${H}" viewBox="0 0 ${w} ${H}" preserveAspectRatio="none" role="group" aria-label="${label}" xmlns="http://www.w3.org/2000/svg"><title>${label}</title>
<defs><pattern id="ub-hatch" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="4" height="4" fill="#cf222e"/><line x1="0" y1="0" x2="0" y2="4" stroke="#fff" stroke-width="1.5"/></pattern>
<pattern id="ub-dots" width="4" height="4" patternUnits="userSpaceOnUse"><rect width="4" height="4" fill="#bf8700"/><circle cx="2" cy="2" r="0.9" fill="#fff"/></pattern></defs>
${bars}</svg><p class="bar-detail" id="uptime-detail" aria-live="polite">${hours.length ? hourLabel(hours[hours.length - 1]!) : ""}</p>${barScript}`;
}

/**
 * Shows the focused (or tapped) hour's details under the bar, and moves between hours with the
 * arrow keys. Without it, each bar keeps its title (hover) and the newest hour is shown.
 */
const barScript = inlineScript(`(() => {
  const bar = document.getElementById("uptime-bar"), out = document.getElementById("uptime-detail");
  if (!bar || !out) return;
  const hours = [...bar.querySelectorAll("rect[data-hour]")];
  bar.addEventListener("focusin", (e) => { if (hours.includes(e.target)) out.textContent = e.target.getAttribute("aria-label"); });
  bar.addEventListener("click", (e) => { if (hours.includes(e.target)) e.target.focus(); });
  bar.addEventListener("keydown", (e) => {
    const i = hours.indexOf(e.target), to = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: hours.length - 1 }[e.key];
    if (i < 0 || to === undefined || !hours[to]) return;
    e.preventDefault();
    e.target.setAttribute("tabindex", "-1");
    hours[to].setAttribute("tabindex", "0");
    hours[to].focus();
  });
})();`);

/** The legend, with a swatch of each fill, so the patterns are named. */
export const uptimeLegend = html`<p class="legend muted"><svg width="10" height="10" aria-hidden="true"><rect width="10" height="10" fill="#2da44e"/></svg> all healthy
<svg width="10" height="10" aria-hidden="true"><rect width="10" height="10" fill="url(#ub-dots)"/></svg> some failed
<svg width="10" height="10" aria-hidden="true"><rect width="10" height="10" fill="url(#ub-hatch)"/></svg> all failed (hatched)
<svg width="10" height="10" aria-hidden="true"><rect y="6" width="10" height="4" fill="#d0d7de"/></svg> no probes (short)</p>`;
