import { generateImage, upscaleImage } from "../answers/ai-media.js";
import { dailyBrief, institutionalFlow, oraclePrice, whaleAlerts } from "../answers/markets-web.js";
import { geocode } from "../answers/weather-geo.js";
import { text, type Answer } from "../answers/seeded.js";
import { atlas } from "./marketplace.js";
import { listing, used, type ListingSpec, type ServiceSpec } from "./listing-spec.js";

const nimbus: ServiceSpec = { serviceName: "Nimbus Translate", provider: "nimbus", tags: ["translation", "ai"] };
const apex: ServiceSpec = { serviceName: "Apex Alpha Signals", provider: "apex", tags: ["trading-signals", "finance"] };
const oraclePulse: ServiceSpec = { serviceName: "Oracle Pulse", provider: "oraclePulse", tags: ["price-feed", "oracle", "crypto"] };
const canvas: ServiceSpec = { serviceName: "Canvas Studio", provider: "canvas", tags: ["image-generation", "design"] };

const translate: Answer = (input) => ({ text: text(input.text, ""), target: text(input.target, "de"), translation: "" });

/** A whole service that went down but is still listed: every endpoint errors. */
export const ZOMBIE_LISTINGS: readonly ListingSpec[] = [
  listing(nimbus, {
    kind: "zombie",
    method: "POST",
    path: "/v2/translate",
    price: "0.003",
    input: { text: "Good morning", target: "de" },
    answer: translate,
    quality: used(4_200, 130, 8 * 24),
    failStatus: 500,
    updatedDaysAgo: 60,
    description: "Neural machine translation between 110 languages.",
  }),
  listing(nimbus, {
    kind: "zombie",
    method: "POST",
    path: "/v2/detect-language",
    price: "0.001",
    input: { text: "Bom dia" },
    answer: translate,
    quality: used(1_900, 77, 8 * 24),
    failStatus: 502,
    updatedDaysAgo: 60,
    description: "Language identification with confidence scores.",
  }),
  listing(nimbus, {
    kind: "zombie",
    method: "GET",
    path: "/v2/languages",
    price: "0.0005",
    input: {},
    answer: translate,
    quality: used(310, 40, 9 * 24),
    failStatus: 503,
    updatedDaysAgo: 60,
    description: "Supported language pairs and their quality tiers.",
  }),
  listing(nimbus, {
    kind: "zombie",
    method: "POST",
    path: "/v2/transliterate",
    price: "0.002",
    input: { text: "Москва", script: "Latn" },
    answer: translate,
    quality: used(120, 11, 10 * 24),
    failStatus: 500,
    updatedDaysAgo: 60,
    description: "Transliteration between scripts (Cyrillic, Greek, Arabic to Latin).",
  }),
];

/** One provider with a cheap teaser, a suspicious price and a wallet-drain decoy. */
export const PREMIUM_LISTINGS: readonly ListingSpec[] = [
  listing(apex, {
    method: "GET",
    path: "/signals/daily-brief",
    price: "0.05",
    input: {},
    answer: dailyBrief,
    quality: used(860, 73, 4),
    description: "Daily crypto market brief with positioning calls.",
  }),
  listing(apex, {
    kind: "suspicious_price",
    method: "GET",
    path: "/signals/whale-alerts",
    price: "49",
    input: { min_usd: 1_000_000 },
    answer: whaleAlerts,
    quality: used(3, 2, 12 * 24),
    description: "Real-time whale wallet movements above a USD threshold.",
  }),
  listing(apex, {
    kind: "decoy",
    method: "POST",
    path: "/signals/institutional-flow",
    price: "2500",
    input: { asset: "BTC" },
    answer: institutionalFlow,
    quality: used(1, 1, 26 * 24),
    updatedDaysAgo: 3,
    description: "Institutional desk flow for an asset over 24 hours.",
  }),
];

/** Listed on the wildcard host: three real feeds (the sitemap's) and three synthetic paths. */
export const WILDCARD_PRICE = "0.002";
const oracleListing = (pair: string, suffix: string, quality: ReturnType<typeof used>) =>
  listing(oraclePulse, {
    kind: "wildcard_402",
    method: "GET",
    path: `/v1/price/${pair}${suffix}`,
    price: WILDCARD_PRICE,
    input: {},
    quality,
    answer: (_input, now) => oraclePrice(`/v1/price/${pair}`, now),
    description: `Signed ${pair} oracle price${suffix ? ` (${suffix.slice(1)} cadence)` : ""}, aggregated from five signers.`,
  });
export const WILDCARD_REAL_PATHS = ["/v1/price/BTC-USD", "/v1/price/ETH-USD", "/v1/price/SOL-USD"] as const;
export const WILDCARD_LISTINGS: readonly ListingSpec[] = [
  oracleListing("BTC-USD", "", used(2_450, 61, 1)),
  oracleListing("ETH-USD", "", used(1_730, 48, 2)),
  oracleListing("SOL-USD", "", used(220, 12, 6 * 24)),
  oracleListing("BTC-USD", "/1m", used(4, 1, 9 * 24)),
  oracleListing("ETH-USD", "/1m", used(2, 1, 11 * 24)),
  oracleListing("SOL-USD", "/1m", used(0, 0, 40 * 24)),
];

/** Listed on the SPA host; every one of them answers the HTML app shell. */
export const SPA_LISTINGS: readonly ListingSpec[] = [
  listing(canvas, {
    kind: "spa_fallback",
    method: "POST",
    path: "/api/v1/generate",
    price: "0.03",
    input: { prompt: "isometric city at night" },
    answer: generateImage,
    quality: used(95, 20, 2 * 24),
    description: "Design-grade image generation with brand style presets.",
  }),
  listing(canvas, {
    kind: "spa_fallback",
    method: "POST",
    path: "/api/v1/upscale",
    price: "0.01",
    input: { image_url: "https://canvas.example/i/1.png", factor: 2 },
    answer: upscaleImage,
    quality: used(40, 9, 3 * 24),
    description: "Upscale a design asset for print.",
  }),
  listing(canvas, {
    kind: "spa_fallback",
    method: "POST",
    path: "/api/v1/remove-background",
    price: "0.01",
    input: { image_url: "https://canvas.example/i/1.png" },
    answer: upscaleImage,
    quality: used(12, 4, 5 * 24),
    description: "Background removal for product photos.",
  }),
  listing(canvas, {
    kind: "spa_fallback",
    method: "GET",
    path: "/api/v1/styles",
    price: "0.001",
    input: {},
    answer: () => ({ styles: ["flat", "isometric"] }),
    quality: used(6, 2, 8 * 24),
    description: "Catalogue of brand style presets.",
  }),
];
/** What the SPA host's /.well-known/x402 manifest lists: two of the four listed paths. */
export const SPA_MANIFEST_PATHS = ["/api/v1/generate", "/api/v1/upscale"] as const;

/** The Atlas service's old API host: still listed, nothing listens any more. */
export const REFUSED_LISTINGS: readonly ListingSpec[] = [
  listing(atlas, {
    kind: "dead_refused",
    method: "GET",
    path: "/v1/geocode",
    price: "0.001",
    input: { q: "Eiffel Tower, Paris" },
    answer: geocode,
    quality: used(38, 3, 21 * 24),
    updatedDaysAgo: 200,
    description: "Atlas Geocoding v1 (legacy host): forward geocoding.",
  }),
];
