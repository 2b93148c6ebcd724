import { canonicalAddress, sameAddress } from "@x402-lookout/contracts/quote";
import { canonicalNetwork, sameAsset } from "../../lib/assets.js";
import type { CatalogTerms, SourceClaim } from "../signals/index.js";

/** One source's terms for a listing, as listing_sources holds them (the source it lists it under). */
export interface SourceTerms extends SourceClaim {
  firstSeenAt: Date;
}

/** The newest challenge's terms: the endpoint's own word. */
export interface LiveTerms {
  network: string;
  asset: string | null;
  payTo: string | null;
  amount: string;
  malformed?: string | null;
}

const MAX_DISAGREEING = 5;

/** The terms where a source contradicts the challenge: both name one and they differ. */
function contradictions(s: SourceClaim, live: LiveTerms): { payee: boolean; other: number } {
  const payee = s.payTo !== null && live.payTo !== null && !sameAddress(s.payTo, live.payTo);
  const network = s.network !== null && canonicalNetwork(s.network) !== canonicalNetwork(live.network);
  // A price compares only in one network and asset, and never with a malformed amount (no price).
  const sameMoney = !network && (s.asset === null || live.asset === null || sameAsset(live.network, s.asset, live.asset));
  const price = sameMoney && !live.malformed && s.amount !== null && s.amount !== live.amount;
  return { payee, other: (network ? 2 : 0) + (price ? 1 : 0) };
}

// Authority without the endpoint's word: the provider's own manifest, then the longest-standing source.
const byAuthority = (a: SourceTerms, b: SourceTerms) =>
  Number(b.kind === "manifest") - Number(a.kind === "manifest") || a.firstSeenAt.getTime() - b.firstSeenAt.getTime() || (a.source < b.source ? -1 : 1);

/**
 * What the sources listing one listing say, weighed against the endpoint's own challenge
 * (decision 0032). When the challenge agrees with a source on payee and network, that source's
 * terms are the listed ones and any source contradicting the challenge is only that source's
 * claim; else (no challenge yet, or one every source contradicts) the most authoritative source's
 * terms are listed and disagreement among sources counts as before.
 */
export function settleSources(terms: readonly SourceTerms[], live: LiveTerms | null): CatalogTerms {
  const scored = terms.map((t) => ({ t, c: live ? contradictions(t, live) : { payee: false, other: 0 } }));
  const agreeing = live ? scored.filter((x) => !x.c.payee && x.c.other < 2) : [];
  // Among the agreeing, the one also agreeing on price first; with none, authority alone.
  const pool = agreeing.length > 0 ? agreeing : scored.map((x) => ({ ...x, c: { payee: x.c.payee, other: 0 } }));
  const listed = [...pool].sort((a, b) => a.c.other - b.c.other || byAuthority(a.t, b.t))[0]?.t;
  const disputed = agreeing.length > 0 ? scored.filter((x) => x.t !== listed && (x.c.payee || x.c.other > 0)).map((x) => x.t) : [];
  const counted = terms.filter((t) => !disputed.includes(t));
  return {
    ...agreement(counted),
    ...(listed ? { listed: claim(listed) } : {}),
    ...(disputed.length > 0 ? { disagreeing: [...disputed].sort(byAuthority).slice(0, MAX_DISAGREEING).map(claim) } : {}),
  };
}

const claim = ({ source, kind, network, asset, payTo, amount, priceUsdc }: SourceTerms): SourceClaim => ({
  source,
  kind,
  network,
  asset,
  payTo,
  amount,
  priceUsdc,
});

/** How far the counted sources agree: distinct payees, and distinct prices within one network and asset. */
export function agreement(terms: readonly SourceClaim[]): Pick<CatalogTerms, "sources" | "payTos" | "amounts"> {
  const payTos = new Set(terms.flatMap((t) => (t.payTo === null ? [] : [canonicalAddress(t.payTo)])));
  const prices = new Map<string, Set<string>>();
  for (const t of terms) {
    if (t.amount === null || t.network === null) continue;
    const money = `${canonicalNetwork(t.network)} ${(t.asset ?? "").toLowerCase()}`;
    prices.set(money, (prices.get(money) ?? new Set()).add(t.amount));
  }
  return { sources: terms.length, payTos: payTos.size, amounts: Math.max(0, ...[...prices.values()].map((p) => p.size)) };
}
