import type { WarningCode } from "./codes.js";

/**
 * Each warning code in plain words, for people: the /spec glossary and the explorer's endpoint
 * pages read this one table (docs/signals.md has the exact rules and thresholds).
 */
export const WARNING_GLOSSARY: Readonly<Record<WarningCode, { title: string; meaning: string }>> = {
  unknown_endpoint: { title: "Not in any catalog", meaning: "The URL is not an active catalog listing: all we know is one live probe." },
  no_history: { title: "No recent probes", meaning: "Listed, but not probed in the last hour: it was just listed or the prober has not reached it yet." },
  dead: { title: "Dead", meaning: "The three newest probes failed, confirmed 45 seconds apart, and none was healthy since." },
  failing: { title: "Failing", meaning: "The newest probe failed; confirmation probes decide whether it is dead." },
  zombie: { title: "Zombie service", meaning: "Every endpoint of the service was probed at least three times in the last hour and none answered healthy." },
  decoy_price_extreme: { title: "Decoy price", meaning: "Priced at 1000 USDC or more: one call drains a wallet." },
  suspicious_high_price: { title: "Suspiciously high price", meaning: "Priced between 10 and 1000 USDC, far above what per-call APIs charge." },
  slow: { title: "Slow", meaning: "Average time to response headers over the last hour is 2 seconds or more." },
  new_provider: { title: "New provider", meaning: "The service's earliest evidence is less than 24 hours old: no track record yet." },
  never_paid_zombie: { title: "Never paid", meaning: "Listed for 30 days or more and the catalog reports no call ever: likely bait." },
  proxy_markup: { title: "Reseller markup", meaning: "Priced at 3x or more the reference price of the same API listed elsewhere." },
  wildcard_402: { title: "402 on any path", meaning: "The host answers x402 payment challenges on random paths: its listings are not real supply." },
  spa_fallback: { title: "App shell", meaning: "The host answers 200 HTML on random paths: an app shell, not an API." },
  pay_to_mismatch: { title: "Someone else's wallet", meaning: "The payment challenge names a payTo other than the listed provider's." },
  pay_to_changed: { title: "Wallet changed", meaning: "Two or more payTo addresses were seen within 7 days: a takeover or a rotation." },
  asset_not_usdc: { title: "Not USDC", meaning: "The challenge asks for a token that is not the network's canonical USDC." },
  network_mismatch: { title: "Other network", meaning: "The challenge names another network than the listing." },
  price_mismatch: { title: "Price differs from listing", meaning: "The live price differs from the listed one (catalogs lag: a caveat, not a block)." },
  price_switch: { title: "Price switch", meaning: "The price rose to at least twice the lowest seen in the 24 hours before: bait cheap, switch later." },
  cloaking: { title: "Cloaking", meaning: "Different clients were shown different offers: the quote the prober saw is not the one an agent gets." },
  malformed_quote: {
    title: "Malformed quote",
    meaning:
      "The amount to sign reads more than one way (padded, hex, two fields that disagree), or the timeout is not a number: what a client signs may not be what anyone checked.",
  },
  source_disagrees: {
    title: "A source disagrees",
    meaning: "A catalog lists other terms than the endpoint's own challenge, which another source agrees with: that catalog's claim, not the endpoint's.",
  },
  unchallenged: {
    title: "Asks no payment",
    meaning: "A paid listing answered 200 without an x402 challenge in the last hour: it charges nothing now, or it is misconfigured.",
  },
  flapping: {
    title: "Flapping",
    meaning:
      "Not dead now, but the last hour was not mostly healthy: under 80% of its probes answered, or more than 2 failed in the last 30 minutes. The next call may well fail.",
  },
  needs_input: {
    title: "Needs input",
    meaning:
      "In the last hour the endpoint mostly answered 400 or 422 without an x402 challenge to the input its listing declares, and never quoted: it is up, but its price is unseen.",
  },
  paid_no_delivery: {
    title: "Paid, nothing delivered",
    meaning:
      "Lookout's own paid check settled a payment in the last 7 days and then got an error, an empty, placeholder or canned body, a time-out or a refusal instead of the answer paid for; or at least two payers, each proven by its settlement on chain, reported so (and outnumber those that reported delivery).",
  },
  invalid_output: {
    title: "Output off its schema",
    meaning: "Lookout's latest paid check in the last 7 days delivered a body that does not match the output schema the listing declares.",
  },
  self_dealing: {
    title: "Self-dealing",
    meaning: "In 30 days the chain shows the listing's payTo paid only by itself, or by a single wallet again and again: those settlements are not use.",
  },
  dead_7d: { title: "Dead all week", meaning: "Catalogued at least 7 days, at least 20 probes in them and not one healthy answer." },
  mostly_dead: { title: "Mostly dead", meaning: "At least 20 probes in 7 days with uptime under 50%." },
  slow_p99: { title: "Slow tail", meaning: "The 99th percentile latency over 7 days is 5 seconds or more." },
  price_outlier_high: { title: "Price outlier", meaning: "Priced at 10x or more the median of comparable endpoints." },
  high_concentration: { title: "High concentration", meaning: "The provider holds 5% or more of the catalog: a single point of failure for routing." },
};
