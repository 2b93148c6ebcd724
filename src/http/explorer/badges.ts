import type { EndpointHistory } from "../../services/index.js";
import { flatBadge } from "../discovery/badge-svg.js";
import { VERDICT_WORDS } from "./list-table.js";

export const BADGE_KINDS = ["verdict", "uptime", "latency"] as const;
export type BadgeKind = (typeof BADGE_KINDS)[number];

const GREY = "#6e7781";
const VERDICT_FILL: Record<string, string> = { pay: "#2e8540", investigate: "#9a6700", use_alternatives: "#bc4c00", skip: "#b3261e" };
/** Shields' scale: bright green from 99.9 %, red below 90 %. */
const uptimeFill = (pct: number) => (pct >= 99.9 ? "#2e8540" : pct >= 99 ? "#4c9a2a" : pct >= 95 ? "#9a6700" : pct >= 90 ? "#bc4c00" : "#b3261e");
const latencyFill = (ms: number) => (ms < 300 ? "#2e8540" : ms < 1000 ? "#4c9a2a" : ms < 2000 ? "#9a6700" : "#b3261e");

/** The badge's label, value and fill; the title names the endpoint, so an embedded badge says whose it is. */
export function endpointBadge(kind: BadgeKind, h: EndpointHistory): string {
  const who = `${h.endpoint.method} ${h.endpoint.url}`;
  if (kind === "verdict") {
    const v = h.verdict;
    const words = VERDICT_WORDS[v?.action ?? "unjudged"] ?? v!.action;
    const title = v
      ? `x402 Lookout verdict for ${who}: ${words}${v.warnings.length ? ` (${v.warnings.join(", ")})` : ""}`
      : `x402 Lookout has no verdict for ${who} yet`;
    return flatBadge(
      [
        { text: "x402 verdict", fill: "#555" },
        { text: words, fill: v ? (VERDICT_FILL[v.action] ?? GREY) : GREY },
      ],
      title,
    );
  }
  if (kind === "uptime") {
    const pct = h.uptime7dPct;
    const text = pct === null ? "no data" : `${pct}%`;
    return flatBadge(
      [
        { text: "uptime 7d", fill: "#555" },
        { text, fill: pct === null ? GREY : uptimeFill(pct) },
      ],
      `Uptime of ${who} over the last 7 days: ${text}`,
    );
  }
  const ms = h.avgLatency7dMs;
  const text = ms === null ? "no data" : `${ms} ms`;
  return flatBadge(
    [
      { text: "latency 7d avg", fill: "#555" },
      { text, fill: ms === null ? GREY : latencyFill(ms) },
    ],
    `Average latency of ${who} over the last 7 days: ${text}`,
  );
}

/** For an id no listing has: a badge still renders in a README, saying so. */
export const unknownBadge = (kind: BadgeKind) =>
  flatBadge(
    [
      { text: kind === "verdict" ? "x402 verdict" : kind === "uptime" ? "uptime 7d" : "latency 7d avg", fill: "#555" },
      { text: "unknown endpoint", fill: GREY },
    ],
    "x402 Lookout lists no endpoint with this id",
  );
