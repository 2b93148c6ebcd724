import { canonicalAddress } from "@x402-lookout/contracts/quote";
import { canonicalNetwork, sameAsset } from "../../lib/assets.js";
import { type ObservedQuote, type SeenValues, THRESHOLDS as T } from "../signals/index.js";
import { settleSources, type SourceTerms } from "./source-claims.js";

/** One span of listing_quotes (source probe) with its terms. */
export interface QuoteSpan {
  profile: string;
  /** The vantage that saw it (decision 0048); absent: 'default'. */
  vantage?: string;
  first_seen_at: Date;
  last_seen_at: Date;
  network: string;
  asset: string | null;
  pay_to: string | null;
  amount: string;
  scheme: string;
  resource_url: string | null;
  /** Why the entry reads more than one way (its amount, or a timeout that is not an integer); null when well-formed. */
  malformed: string | null;
}

const SEEN_CAP = 5;
const distinct = (values: Array<string | null>) => [...new Set(values.filter((v): v is string => v !== null))].slice(0, SEEN_CAP);
const minOf = (xs: bigint[]) => xs.reduce((a, b) => (a < b ? a : b));
const maxOf = (xs: bigint[]) => xs.reduce((a, b) => (a > b ? a : b));
const offer = (s: QuoteSpan) => `${s.amount}@${s.pay_to === null ? "" : canonicalAddress(s.pay_to)}`;

/**
 * Cloaking: two request profiles, or two vantages (decision 0048), both seen in the window, whose
 * offers (price and payee) never met while their spans overlapped. An honest change shows every
 * profile both offers, so their sets meet; a quote shown only to some clients keeps them apart (decision 0020).
 */
function profilesDisagree(spans: readonly QuoteSpan[], since: number): boolean {
  return disagree(spans, since, (s) => s.profile) || disagree(spans, since, (s) => s.vantage ?? "default");
}

function disagree(spans: readonly QuoteSpan[], since: number, axis: (s: QuoteSpan) => string): boolean {
  const byProfile = new Map<string, { offers: Set<string>; from: number; to: number }>();
  for (const s of spans) {
    if (s.last_seen_at.getTime() < since) continue;
    const p = byProfile.get(axis(s)) ?? { offers: new Set<string>(), from: Infinity, to: -Infinity };
    p.offers.add(offer(s));
    p.from = Math.min(p.from, Math.max(since, s.first_seen_at.getTime()));
    p.to = Math.max(p.to, s.last_seen_at.getTime());
    byProfile.set(axis(s), p);
  }
  const profiles = [...byProfile.values()];
  return profiles.some((a, i) => profiles.slice(i + 1).some((b) => a.from <= b.to && b.from <= a.to && ![...a.offers].some((o) => b.offers.has(o))));
}

/** A listing's quote evidence from its spans of the last 7 days; null when none was read. */
export function observedQuote(spans: readonly QuoteSpan[], now: Date): ObservedQuote | null {
  const recent = spans.filter((s) => now.getTime() - s.last_seen_at.getTime() <= T.payToWindowMs);
  if (recent.length === 0) return null;
  const newest = [...recent].sort((a, b) => b.last_seen_at.getTime() - a.last_seen_at.getTime());
  const live = newest[0]!;
  const dayBefore = live.last_seen_at.getTime() - T.priceSwitchWindowMs;
  // A malformed entry's amount is no price: it never sets the lowest or the highest one.
  const sameMoney = (s: QuoteSpan) =>
    s.malformed === null && canonicalNetwork(s.network) === canonicalNetwork(live.network) && sameAsset(live.network, s.asset ?? "", live.asset ?? "");
  const day = newest.filter((s) => s.last_seen_at.getTime() >= dayBefore && sameMoney(s)).map((s) => BigInt(s.amount));
  const seen: SeenValues = {
    pay_to: distinct(newest.map((s) => s.pay_to)),
    asset: distinct(newest.map((s) => s.asset)),
    network: distinct(newest.map((s) => s.network)),
    scheme: distinct(newest.map((s) => s.scheme)),
    resource_url: distinct(newest.map((s) => s.resource_url)),
    amount: distinct(newest.map((s) => s.amount)),
  };
  return {
    live: { network: live.network, asset: live.asset, payTo: live.pay_to, amount: live.amount, at: live.last_seen_at.toISOString(), malformed: live.malformed },
    payTos7d: new Set(recent.flatMap((s) => (s.pay_to === null ? [] : [canonicalAddress(s.pay_to)]))).size,
    lowestAmount24h: day.length === 0 ? null : minOf(day).toString(),
    profilesDisagree: profilesDisagree(recent, now.getTime() - T.priceSwitchWindowMs),
    highestAmount7d: recent.some(sameMoney) ? maxOf(recent.filter(sameMoney).map((s) => BigInt(s.amount))).toString() : null,
    seen,
  };
}

const NOTHING_SEEN: SeenValues = { pay_to: [], asset: [], network: [], scheme: [], resource_url: [], amount: [] };

/**
 * The probe evidence with what the listing's sources say, weighed against the newest challenge
 * (decision 0032). Sources that disagree are evidence before any probe, so a listing never
 * probed gets a quote of its catalog terms alone.
 */
export function withCatalog(observed: ObservedQuote | null, sources: readonly SourceTerms[] | undefined): ObservedQuote | null {
  if (!sources || sources.length === 0) return observed;
  const catalog = settleSources(sources, observed?.live ?? null);
  if (observed) return { ...observed, catalog };
  if (catalog.payTos < 2 && catalog.amounts < 2) return null;
  return { live: null, payTos7d: 0, lowestAmount24h: null, profilesDisagree: false, highestAmount7d: null, seen: NOTHING_SEEN, catalog };
}
