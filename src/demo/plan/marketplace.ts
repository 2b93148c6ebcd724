import { generateImage, keywords, mintAvatar, sentiment, summarize, upscaleImage } from "../answers/ai-media.js";
import { extractData, fundingRates, ohlc, scrapePage, spotPrice } from "../answers/markets-web.js";
import { batchGeocode, currentWeather, forecast, geocode, reverseGeocode, weatherHistory } from "../answers/weather-geo.js";
import { listing, neverCalled, used, type ListingSpec, type ServiceSpec } from "./listing-spec.js";

/**
 * The "marketplace" server: most merchants of the demo share one host, as they would behind a
 * hosting platform. Every service keeps at least one listing last called more than a day ago,
 * so on a fresh install only QuickMint (never paid at all) reads as a new provider.
 */

export const skycast: ServiceSpec = { serviceName: "Skycast Weather", provider: "skycast", tags: ["weather", "forecast"] };
export const atlas: ServiceSpec = { serviceName: "Atlas Geocoding", provider: "atlas", tags: ["maps", "geocoding"] };
const digest: ServiceSpec = { serviceName: "Digest AI", provider: "lumen", tags: ["ai", "llm", "summarization"] };
const pixelforge: ServiceSpec = { serviceName: "Pixelforge", provider: "lumen", tags: ["image-generation", "ai"] };
const tickerwire: ServiceSpec = { serviceName: "Tickerwire Prices", provider: "tickerwire", tags: ["price-feed", "crypto", "finance"] };
const scrapewell: ServiceSpec = { serviceName: "Scrapewell", provider: "scrapewell", tags: ["web-scraping", "data"] };
const quickmint: ServiceSpec = { serviceName: "QuickMint Avatars", provider: "quickmint", tags: ["image-generation", "nft"] };

const LOREM =
  "The council approved the new cycling lanes on Tuesday. Work starts in March and should take eight months. Shop owners asked for night-time construction.";

export const MARKETPLACE_LISTINGS: readonly ListingSpec[] = [
  listing(skycast, {
    method: "GET",
    path: "/weather/current",
    price: "0.001",
    input: { city: "Lisbon" },
    answer: currentWeather,
    quality: used(18_240, 412, 0.2),
    description: "Current conditions for any city: temperature, humidity, wind and sky cover, blended from 40,000 ground stations.",
  }),
  listing(skycast, {
    method: "GET",
    path: "/weather/forecast",
    price: "0.003",
    input: { city: "Lisbon", days: 5 },
    answer: forecast,
    quality: used(6_130, 198, 1),
    description: "Daily forecast up to 10 days ahead with highs, lows and precipitation.",
  }),
  listing(skycast, {
    kind: "ghost",
    method: "GET",
    path: "/weather/history",
    price: "0.005",
    input: { city: "Lisbon", date: "2019-07-14" },
    answer: weatherHistory,
    quality: { calls: 0, payers: 0, lastCalledHoursAgo: 52 * 24 },
    updatedDaysAgo: 120,
    description: "Historical daily observations back to 1990 for a city and date.",
  }),

  listing(atlas, {
    method: "GET",
    path: "/geo/geocode",
    price: "0.002",
    input: { q: "Brandenburg Gate, Berlin" },
    answer: geocode,
    quality: used(9_870, 233, 0.5),
    description: "Forward geocoding: an address or place name to coordinates, with a confidence score.",
  }),
  listing(atlas, {
    method: "GET",
    path: "/geo/reverse",
    price: "0.002",
    input: { lat: 38.7223, lon: -9.1393 },
    answer: reverseGeocode,
    quality: used(4_410, 120, 2),
    description: "Reverse geocoding: coordinates to the nearest street address.",
  }),
  listing(atlas, {
    kind: "dead_5xx",
    method: "POST",
    path: "/geo/batch",
    price: "0.015",
    input: { queries: ["Eiffel Tower, Paris"] },
    answer: batchGeocode,
    quality: used(1_020, 14, 9 * 24),
    failStatus: 500,
    description: "Batch geocoding of up to 100 addresses in one call.",
  }),

  listing(digest, {
    method: "POST",
    path: "/ai/summarize",
    price: "0.02",
    input: { text: LOREM, max_words: 60 },
    answer: summarize,
    quality: used(3_305, 142, 0.3),
    description: "LLM summarisation of up to 20,000 characters: a short summary plus key points.",
  }),
  listing(digest, {
    method: "POST",
    path: "/ai/sentiment",
    price: "0.005",
    input: { text: "Fast delivery, great support." },
    answer: sentiment,
    quality: used(2_120, 64, 3),
    description: "Sentiment label and score for a text, tuned on product reviews.",
  }),
  listing(digest, {
    method: "POST",
    path: "/ai/keywords",
    price: "0.004",
    input: { text: LOREM },
    answer: keywords,
    quality: used(45, 6, 4 * 24),
    description: "Keyword extraction: the most frequent meaningful terms of a text.",
  }),

  listing(pixelforge, {
    method: "POST",
    path: "/images/generate",
    price: "0.04",
    input: { prompt: "a lighthouse at dawn, watercolour", size: "1024x1024" },
    answer: generateImage,
    quality: used(1_880, 97, 0.8),
    description: "Text-to-image generation, 1024 px square by default, returns a signed CDN link.",
  }),
  listing(pixelforge, {
    kind: "slow",
    method: "POST",
    path: "/images/upscale",
    price: "0.02",
    input: { image_url: "https://cdn.pixelforge.example/renders/sample.png", factor: 2 },
    answer: upscaleImage,
    quality: used(640, 41, 2 * 24),
    description: "2x or 4x super-resolution upscaling of an image URL.",
  }),

  listing(tickerwire, {
    method: "GET",
    path: "/prices/spot",
    price: "0.0005",
    input: { pair: "ETH-USD" },
    answer: spotPrice,
    quality: used(52_300, 311, 0.05),
    description: "Volume-weighted spot price for a crypto pair across seven venues.",
  }),
  listing(tickerwire, {
    method: "GET",
    path: "/prices/ohlc",
    price: "0.001",
    input: { pair: "BTC-USD", interval: "1h" },
    answer: ohlc,
    quality: used(12_900, 150, 0.4),
    description: "OHLC candles for a crypto pair at 1m to 1d intervals.",
  }),
  listing(tickerwire, {
    kind: "flapping",
    method: "GET",
    path: "/prices/funding-rates",
    price: "0.001",
    input: {},
    answer: fundingRates,
    quality: used(3_400, 57, 3 * 24),
    description: "Perpetual-futures funding rates for the major markets, refreshed hourly.",
  }),

  listing(scrapewell, {
    method: "POST",
    path: "/scrape/page",
    price: "0.01",
    input: { url: "https://example.com/pricing", render_js: true },
    answer: scrapePage,
    quality: used(7_750, 176, 0.6),
    description: "Fetch and render a web page (headless browser optional); returns title, text size and links.",
  }),
  listing(scrapewell, {
    method: "POST",
    path: "/scrape/extract",
    price: "0.015",
    input: { url: "https://example.com/pricing", fields: ["plan", "price"] },
    answer: extractData,
    quality: used(980, 31, 29),
    description: "Structured extraction: named fields pulled from a page as JSON.",
  }),

  listing(quickmint, {
    kind: "never_paid",
    method: "POST",
    path: "/avatars/mint",
    price: "0.25",
    input: { handle: "satoshi" },
    answer: mintAvatar,
    quality: neverCalled,
    updatedDaysAgo: 45,
    description: "Mint a stylised profile avatar for a handle.",
  }),
];
