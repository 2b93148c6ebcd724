import type { CertificateState } from "../../services/index.js";

const COLORS: Record<CertificateState, string> = { verified: "#2e8540", lapsed: "#b3261e" };
const MAX_NAME_CHARS = 32;
const MAX_HOST_CHARS = 28;

/** Escapes text for SVG/XML content and attribute values. */
export function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
}

/** Approximate advance width in px of 11px Verdana: wide scripts take about two narrow cells. */
function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\u{1f300}-\u{1faff}]/u.test(ch) ? 12 : 7;
  return w;
}

const clip = (name: string, max = MAX_NAME_CHARS) => {
  const chars = [...name];
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : name;
};

/** "api.example.com · 0x1234…abcd": the host (clipped) and the payTo, short but recognisable. */
const holderText = ({ host, payTo }: { host: string; payTo: string | null }) =>
  `${clip(host, MAX_HOST_CHARS)} · ${payTo ? `${payTo.slice(0, 6)}…${payTo.slice(-4)}` : "payTo not proven"}`;

export interface BadgeInput {
  name: string;
  /** Whose it is: shown between name and state, so no name stands alone. */
  holder?: { host: string; payTo: string | null };
  state: CertificateState;
  /** Full sentence for screen readers and the tooltip. */
  title: string;
}

/** A flat badge: the certified name, whose it is (host and payTo), then "x402 verified" or "x402 lapsed". */
export function badgeSvg({ name, holder, state, title }: BadgeInput): string {
  const middle = holder ? [{ text: holderText(holder), fill: "#3b5877" }] : [];
  const right = state === "verified" ? "x402 verified" : "x402 lapsed";
  return flatBadge([{ text: clip(name), fill: "#555" }, ...middle, { text: right, fill: COLORS[state] }], title);
}

/** One segment of a badge: its text (escaped here) on its fill. */
export interface BadgePart {
  text: string;
  fill: string;
}

/** A shields-like flat badge of segments side by side, titled for screen readers and the tooltip. */
export function flatBadge(parts: readonly BadgePart[], title: string): string {
  const widths = parts.map((p) => textWidth(p.text) + 12);
  const starts = widths.map((_, i) => widths.slice(0, i).reduce((a, b) => a + b, 0));
  const w = widths.reduce((a, b) => a + b, 0);
  const t = xmlEscape(title);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" viewBox="0 0 ${w} 20" role="img" aria-label="${t}">
<title>${t}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)">${parts.map((p, i) => `<rect${i ? ` x="${starts[i]}"` : ""} width="${widths[i]}" height="20" fill="${xmlEscape(p.fill)}"/>`).join("")}<rect width="${w}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
${parts.map((p, i) => `<text x="${starts[i]! + widths[i]! / 2}" y="14">${xmlEscape(p.text)}</text>`).join("")}
</g>
</svg>`;
}

/** The certificate and endpoint badges' headers: an SVG that can run nothing and is never sniffed as anything else. */
export const SVG_SECURITY_HEADERS = {
  "content-type": "image/svg+xml; charset=utf-8",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
  "x-content-type-options": "nosniff",
} as const;
