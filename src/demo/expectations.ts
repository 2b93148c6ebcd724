import type { DemoExpectation, DemoKind } from "./types.js";

/**
 * What each kind is there to teach: the naked-probe answer and the codes (docs/signals.md) the
 * service should give in `reason_codes` (signals.md thresholds; `warnings` keeps the spec's). Forensics-only codes are listed where the kind
 * is built to show them. `high_concentration` is left out: in a catalog this small most
 * providers hold more than 5% of it, so it fires broadly in forensics. `npm run bench:truth`
 * scores the service against these labels (docs/benchmarks.md).
 */
export const EXPECTATIONS: Readonly<Record<DemoKind, DemoExpectation>> = {
  healthy: {
    naked: "402_challenge",
    warnings: [],
    delistReasons: [],
    note: "clean: recommended_action pay once probed. Where the chain is read (`npm start`: the indexer), the demo traffic pays those at most 0.01 USDC (src/demo/traffic); an unpaid one whose price is unique on its payTo (images/generate, daily-brief) reads ghost_listing after GHOST_MIN_LISTED_HOURS",
  },
  dead_5xx: {
    naked: "5xx",
    warnings: ["dead", "dead_7d"],
    delistReasons: ["dead_7d"],
    note: "dead at its third failed probe in a row (confirmation probes 45 s apart: within 3 min of first sight); dead_7d once catalogued 7 days with 20 probes and none healthy (decision 0037); its service has healthy endpoints, so no zombie",
  },
  dead_refused: {
    naked: "connection_refused",
    warnings: ["dead", "dead_7d"],
    delistReasons: ["dead_7d"],
    note: "listed on a port nothing listens on (network_error); same service as healthy Atlas endpoints, so no zombie",
  },
  zombie: {
    naked: "5xx",
    warnings: ["zombie", "dead", "dead_7d"],
    delistReasons: ["zombie", "dead_7d"],
    note: "every endpoint of the service errors (500, 502, 503) while the catalog still lists it",
  },
  decoy: {
    naked: "402_challenge",
    warnings: ["decoy_price_extreme", "price_outlier_high"],
    delistReasons: ["decoy_price_extreme"],
    note: "2500 USDC: skip; more than 10x its provider's median price",
  },
  suspicious_price: { naked: "402_challenge", warnings: ["suspicious_high_price"], delistReasons: [], note: "49 USDC: skip (wallet-drain risk, not critical)" },
  slow: {
    naked: "402_challenge_after_delay",
    warnings: ["slow"],
    delistReasons: [],
    note: "headers after slowMs (default 2500 ms, above the 2000 ms threshold)",
  },
  flapping: {
    naked: "402_or_503_by_phase",
    warnings: ["dead", "mostly_dead", "flapping"],
    delistReasons: [],
    note: "alternates flapPeriodMs up, flapPeriodMs down by wall clock; dead from the third failed probe in a row of a down phase (its first one at the slot, two confirmations 45 s apart), cleared at the first healthy probe; uptime near 50%; once it has been down, flapping (investigate, never pay) while its last hour is not mostly healthy (decision 0049); before its first down phase it reads pay like any healthy listing",
  },
  wildcard_402: {
    naked: "402_challenge",
    warnings: ["wildcard_402"],
    delistReasons: [],
    note: "host answers a challenge on any path; effective count 3 from /sitemap.xml against 6 listed",
  },
  spa_fallback: {
    naked: "200_html",
    warnings: ["spa_fallback", "unchallenged"],
    delistReasons: [],
    note: "host answers a 200 HTML app shell on any path, its paid listings included (unchallenged: no challenge, decision 0037); effective count 2 from /.well-known/x402 against 4 listed",
  },
  proxy_reseller: {
    naked: "402_challenge",
    warnings: ["proxy_markup"],
    delistReasons: [],
    note: "wraps a listed origin at 4-5x its price: proxy_markup with high confidence; the 0.08 USDC summarize resale is also 16x RelayMart's median price, so it alone also carries price_outlier_high (forensics; its listing's alsoExpect, plan/reseller.ts)",
  },
  ghost: {
    naked: "402_challenge",
    warnings: [],
    delistReasons: ["ghost_listing"],
    note: "healthy but zero calls in 30 days (last call 52 days ago): ghost_listing once listed 30 days; where the chain is read (`npm start`), nobody pays it: ghost_listing once listed GHOST_MIN_LISTED_HOURS (demo 6 min, decision 0052)",
  },
  never_paid: {
    naked: "402_challenge",
    warnings: ["new_provider", "never_paid_zombie"],
    delistReasons: ["ghost_listing"],
    note: "no call ever: new_provider for its first 24 h here; never_paid_zombie (skip) once listed 30 days; where the chain is read (`npm start`), ghost_listing once listed GHOST_MIN_LISTED_HOURS (demo 6 min)",
  },
  // Quote traps (decision 0020): each reads skip once the prober has seen its departing terms.
  cloaked_quote: {
    naked: "402_unlisted_terms",
    warnings: ["cloaking"],
    delistReasons: [],
    mayAlso: ["decoy_price_extreme", "price_mismatch", "price_switch", "price_outlier_high"],
    note: "0.001 USDC to User-Agent node (the prober's fetch profile), 5000 to every other client: cloaking (skip) once two profiles were probed; while the newest probe wore another profile the price read is 5000, so the decoy and price codes fire too",
  },
  price_switch: {
    naked: "402_unlisted_terms",
    warnings: ["price_switch", "price_mismatch"],
    delistReasons: [],
    mayAlso: ["price_outlier_high"],
    note: "listed and quoting 0.001 USDC, then 0.9 from quoteSwitchAfterMs (default 15 min) after the fleet started: skip from the first probe after the switch; price_switch for a day, price_mismatch while it lasts",
  },
  pay_to_switch: {
    naked: "402_unlisted_terms",
    warnings: ["pay_to_mismatch", "pay_to_changed"],
    delistReasons: [],
    note: "listed and quoting Mirage Labs' payTo, then another address from quoteSwitchAfterMs: skip from the first probe after the switch; pay_to_changed for 7 days",
  },
  non_usdc_asset: {
    naked: "402_unlisted_terms",
    warnings: ["asset_not_usdc"],
    delistReasons: [],
    note: "listed in USDC; its challenge names a token called USDC at another address: skip from its first probe",
  },
  // The real ecosystem's shapes (issue 37, plan/ecosystem-shapes.ts).
  needs_query: {
    naked: "422_without_declared_input",
    warnings: [],
    delistReasons: [],
    note: "validates before it quotes: 422 without its declared query parameter (GET) or JSON body field (POST), 402 with it; probed with its declared input (decision 0046) it reads pay once probed; the POST one answers 422 to the profiles that send no body example (needs_input outcomes beside healthy ones, so no code)",
  },
  needs_input: {
    naked: "422_always",
    warnings: ["needs_input"],
    delistReasons: [],
    note: "422 to every request, its declared body example included: needs_input (investigate) from its first probes, never failing, dead or zombie (decision 0046)",
  },
  big_challenge: {
    naked: "402_large_challenge",
    warnings: [],
    delistReasons: [],
    note: "a PAYMENT-REQUIRED header of about 100 KiB (forty accepts on other chains before its own, a Bazaar extension with a long output example): read whole (up to 128 KiB, decision 0047's probing note), clean: pay once probed",
  },
  dies_early: {
    naked: "402_then_5xx",
    warnings: ["dead"],
    delistReasons: [],
    note: "healthy at first sight, 500 for good from DIES_EARLY_AFTER_MS (1 min) after its first request, inside its first probe interval: dead within 3 minutes of its first failed probe (decision 0047); its service keeps healthy endpoints, so no zombie",
  },
  // Northwind Data (plan/delivery.ts): each settles the payment before it answers, then answers
  // as its kind says. Probes see a proper challenge; only a paid check sees the rest (decision 0051).
  paid_ok: {
    naked: "402_challenge",
    warnings: [],
    delistReasons: [],
    evidence: "delivery",
    note: "settles, then answers JSON that matches its declared output schema and depends on the input: delivered, clean (pay) after any number of checks",
  },
  paid_500: {
    naked: "402_challenge",
    warnings: ["paid_no_delivery"],
    delistReasons: [],
    evidence: "delivery",
    note: "settles, then answers 500: undelivered at its first paid check, paid_no_delivery (critical: ok false); in `npm start` the demo traffic also pays it and its wallets report undelivered (payers' reports on its page)",
  },
  paid_empty: {
    naked: "402_challenge",
    warnings: ["paid_no_delivery"],
    delistReasons: [],
    evidence: "delivery",
    note: "settles, then answers 200 with an empty body: undelivered at its first paid check, paid_no_delivery (critical: ok false)",
  },
  paid_canned: {
    naked: "402_challenge",
    warnings: ["paid_no_delivery"],
    delistReasons: [],
    evidence: "delivery",
    note: "settles, then answers its declared output example whatever the input: its first check (the declared input) reads delivered, the second (another enum value) canned: undelivered, paid_no_delivery (critical: ok false)",
  },
  paid_off_schema: {
    naked: "402_challenge",
    warnings: ["invalid_output"],
    delistReasons: [],
    evidence: "delivery",
    note: "settles, then answers JSON outside its declared output schema (a required property missing, numbers as strings): invalid_output (a warning) at its first paid check",
  },
  paid_401: {
    naked: "402_challenge",
    warnings: ["paid_no_delivery"],
    delistReasons: [],
    evidence: "delivery",
    note: "settles, then answers 401 (an API key wanted): refused_after_payment at its first paid check, paid_no_delivery (critical: ok false)",
  },
};
