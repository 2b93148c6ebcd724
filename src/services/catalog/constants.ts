/**
 * Every number and vocabulary of catalog ingestion, in one place (docs/catalog.md explains
 * each). Tests pass smaller values through IngestOptions instead of editing these.
 */

/** Items asked for per page; a server may answer fewer, the offset advances by what came. */
export const PAGE_LIMIT = 100;
/** A poll that needs more pages than this is treated as looping and ends partial. */
export const MAX_PAGES = 5_000;
/** One page request (headers and body) must finish within this. */
export const REQUEST_TIMEOUT_MS = 10_000;
/** A whole poll of one source must finish within this, or it ends partial. */
export const POLL_BUDGET_MS = 240_000;
/** A page body larger than this is refused (garbage or a misconfigured source). */
export const MAX_PAGE_BYTES = 20 * 1024 * 1024;
/** A claimed source stays leased this long, so a crashed ingester frees it again. */
export const LEASE_MARGIN_MS = 60_000;

/** A source whose last complete poll is older than this stops counting (default of CATALOG_SOURCE_GRACE_HOURS). */
export const SOURCE_GRACE_MS = 24 * 3_600_000;

/**
 * Origin manifests (docs/catalog.md): the documents asked for at each origin a source names,
 * how often, how many origins one cycle polls and how many at once, and each request's limits.
 */
export const MANIFEST_PATHS = ["/.well-known/x402", "/openapi.json"] as const;
export const MANIFEST_CADENCE_MS = 6 * 3_600_000;
export const MANIFEST_POLLS_PER_CYCLE = 40;
export const MANIFEST_CONCURRENCY = 4;
export const MANIFEST_TIMEOUT_MS = 5_000;
export const MANIFEST_MAX_BYTES = 2 * 1024 * 1024;
/** Resources a manifest names without terms are asked for their 402: this many per origin and poll, this much body read. */
export const MANIFEST_CHALLENGES_PER_ORIGIN = 20;
export const MANIFEST_CHALLENGE_BYTES = 256 * 1024;

/** Backoff of a failing source: BASE * 2^(failures - 1), capped, times a jitter factor. */
export const BACKOFF_BASE_MS = 30_000;
export const BACKOFF_MAX_MS = 3_600_000;
/** The delay is multiplied by a factor drawn from [1 - JITTER, 1 + JITTER]. */
export const BACKOFF_JITTER = 0.2;

/** Rows per INSERT ... ON CONFLICT statement (29 columns each, far below 65535 parameters). */
export const UPSERT_BATCH_SIZE = 500;
/** New listings get their first probe spread over this window after they are first seen. */
export const FIRST_PROBE_SPREAD_MS = 45_000;

/** Method used when the catalog does not say (x402 resources are mostly POST). */
export const DEFAULT_METHOD = "POST";
export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"] as const;

/** Caps on free text taken from a catalog, so one item cannot bloat a row. */
export const MAX_SERVICE_NAME_CHARS = 200;
export const MAX_DESCRIPTION_CHARS = 2_000;
export const MAX_TAGS = 20;
export const MAX_TAG_CHARS = 64;
export const MAX_SERVICE_ID_CHARS = 64;
/** Longer values would not fit a btree index entry (about 2.7 kB): such items are malformed. */
export const MAX_URL_CHARS = 2_048;
export const MAX_NETWORK_CHARS = 64;
export const MAX_ADDRESS_CHARS = 128;

/** The fixed category vocabulary of listings (signals.md: category group key). */
export const CATEGORIES = ["data", "ai", "media", "finance", "search", "weather", "geo", "web", "other"] as const;
export type Category = (typeof CATEGORIES)[number];

/** Tag spellings (lower case, spaces and underscores as '-') mapped onto the vocabulary. */
export const CATEGORY_SYNONYMS: Readonly<Record<Exclude<Category, "other">, readonly string[]>> = {
  data: ["data", "dataset", "datasets", "analytics", "database", "stats", "statistics", "api-data", "enrichment", "research"],
  ai: [
    "ai",
    "llm",
    "llms",
    "ml",
    "machine-learning",
    "gpt",
    "genai",
    "generative-ai",
    "inference",
    "agent",
    "agents",
    "chat",
    "chatbot",
    "model",
    "models",
    "nlp",
    "embedding",
    "embeddings",
    "artificial-intelligence",
    "openai",
  ],
  media: [
    "media",
    "image",
    "images",
    "image-generation",
    "video",
    "audio",
    "music",
    "photo",
    "photos",
    "tts",
    "text-to-speech",
    "speech",
    "voice",
    "art",
    "content",
  ],
  finance: [
    "finance",
    "financial",
    "crypto",
    "cryptocurrency",
    "defi",
    "trading",
    "price",
    "prices",
    "market",
    "markets",
    "market-data",
    "stocks",
    "token",
    "tokens",
    "payments",
    "blockchain",
    "onchain",
    "on-chain",
    "web3",
    "wallet",
    "nft",
  ],
  search: ["search", "lookup", "query", "discovery", "index", "web-search"],
  weather: ["weather", "forecast", "forecasts", "climate", "meteo", "meteorology"],
  geo: ["geo", "geolocation", "location", "maps", "map", "gis", "geocoding", "places", "ip-geolocation"],
  web: ["web", "scraping", "scraper", "scrape", "crawl", "crawler", "crawling", "browser", "screenshot", "http", "url", "seo", "website"],
};
