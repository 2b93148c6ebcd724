import { sameAddress } from "@x402-lookout/contracts/quote";
import { canonicalNetwork, isCanonicalUsdc } from "../../lib/assets.js";
import { THRESHOLDS as T } from "./constants.js";
import type { Rule, SignalInput } from "./signal-types.js";

/**
 * The quote-integrity rules (decision 0020): the newest challenge the prober read against the
 * terms the catalog lists, the week's payees, the day's prices and the request profiles.
 */
const live = (s: SignalInput) => s.observedQuote?.live ?? null;
// A malformed live entry's amount is what a client would sign, not a price to compare.
const livePrice = (s: SignalInput) => (live(s)?.malformed ? null : live(s));
const listed = (s: SignalInput) => s.listedQuote;

// A listing may name its asset by symbol; an address must be the network's canonical USDC.
const notUsdc = (network: string | null, asset: string | null) =>
  network !== null && asset?.toUpperCase() !== "USDC" && isCanonicalUsdc(network, asset) === false;
const sameTerms = (s: SignalInput) => {
  const l = live(s)!;
  const c = listed(s)!;
  return (c.network === null || canonicalNetwork(c.network) === canonicalNetwork(l.network)) && (c.asset === null || !notUsdc(l.network, l.asset));
};

export const quoteRules = {
  pay_to_mismatch: (s) => live(s)?.payTo != null && listed(s)?.payTo != null && !sameAddress(live(s)!.payTo, listed(s)!.payTo),
  // Payees seen by probes in the week, or named at once by the sources that list it.
  pay_to_changed: (s) => (s.observedQuote?.payTos7d ?? 0) >= 2 || (s.observedQuote?.catalog?.payTos ?? 0) >= 2,
  asset_not_usdc: (s) => (live(s) ? notUsdc(live(s)!.network, live(s)!.asset) : notUsdc(listed(s)?.network ?? null, listed(s)?.asset ?? null)),
  network_mismatch: (s) => live(s) !== null && listed(s)?.network != null && canonicalNetwork(live(s)!.network) !== canonicalNetwork(listed(s)!.network!),
  // Only a price in the listed network and asset compares with the listed price.
  // Or two sources that list it name different prices in one network and asset.
  price_mismatch: (s) =>
    (livePrice(s) !== null && listed(s)?.amount != null && live(s)!.amount !== listed(s)!.amount && sameTerms(s)) ||
    (s.observedQuote?.catalog?.amounts ?? 0) >= 2,
  price_switch: (s) => {
    const lowest = s.observedQuote?.lowestAmount24h;
    return livePrice(s) !== null && lowest != null && BigInt(lowest) > 0n && BigInt(live(s)!.amount) >= BigInt(lowest) * BigInt(T.priceSwitchRatio);
  },
  cloaking: (s) => s.observedQuote?.profilesDisagree ?? false,
  malformed_quote: (s) => (live(s)?.malformed ?? null) !== null,
  // A source the challenge contradicts while another agrees: that source's claim, never the endpoint's (decision 0032).
  source_disagrees: (s) => (s.observedQuote?.catalog?.disagreeing?.length ?? 0) > 0,
} satisfies Record<string, Rule>;
