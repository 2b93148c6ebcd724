import { classify, marketList, pageLinks, searchPlaces } from "../answers/ecosystem.js";
import { listing, used, type ListingSpec, type ServiceSpec } from "./listing-spec.js";

// The same services as the marketplace plan's (equal by value), each keeping healthy siblings,
// so an endpoint here that fails is dead, never a zombie service.
const atlas: ServiceSpec = { serviceName: "Atlas Geocoding", provider: "atlas", tags: ["maps", "geocoding"] };
const digest: ServiceSpec = { serviceName: "Digest AI", provider: "lumen", tags: ["ai", "llm", "summarization"] };
const tickerwire: ServiceSpec = { serviceName: "Tickerwire Prices", provider: "tickerwire", tags: ["price-feed", "crypto", "finance"] };
const scrapewell: ServiceSpec = { serviceName: "Scrapewell", provider: "scrapewell", tags: ["web-scraping", "data"] };

/**
 * Shapes the real ecosystem shows and the rest of the fleet lacks (issue 37), on the marketplace
 * host: endpoints that validate their declared input before they quote (a query, a JSON body),
 * one that refuses every input, a very large challenge, and one that dies within its first interval.
 */
export const ECOSYSTEM_SHAPE_LISTINGS: readonly ListingSpec[] = [
  listing(atlas, {
    kind: "needs_query",
    method: "GET",
    path: "/geo/search",
    price: "0.002",
    input: { q: "Lisbon" },
    answer: searchPlaces,
    quality: used(2_340, 91, 3),
    description: "Place search by name; q is required.",
  }),
  listing(scrapewell, {
    kind: "needs_query",
    method: "POST",
    path: "/scrape/links",
    price: "0.01",
    input: { url: "https://example.com/" },
    answer: pageLinks,
    quality: used(870, 41, 6),
    description: "Every link on a page; the JSON body names the url.",
  }),
  listing(scrapewell, {
    kind: "needs_input",
    method: "POST",
    path: "/scrape/screenshot",
    price: "0.015",
    input: { url: "https://example.com/" },
    answer: pageLinks,
    quality: used(450, 22, 12),
    description: "Full-page screenshot; needs a session the listing does not declare.",
  }),
  listing(tickerwire, {
    kind: "big_challenge",
    method: "GET",
    path: "/prices/markets",
    price: "0.001",
    input: {},
    answer: marketList,
    quality: used(3_020, 140, 2),
    description: "Every market Tickerwire follows, with last price, volume and spread, on eight venues.",
  }),
  listing(digest, {
    kind: "dies_early",
    method: "POST",
    path: "/ai/classify",
    price: "0.005",
    input: { text: "Token prices rose after the market opened." },
    answer: classify,
    quality: used(1_210, 64, 5),
    description: "Topic classification of a text.",
  }),
];
