import { quote } from "./markets-web.js";
import { round, seeded, text, type Answer } from "./seeded.js";

/** Answers of the listings shaped like the real ecosystem's (plan/ecosystem-shapes.ts). */

const VENUES = ["Binance", "Coinbase", "Kraken", "OKX", "Bybit", "Bitstamp", "Gemini", "KuCoin"] as const;
const ASSETS = ["BTC", "ETH", "SOL", "DOGE", "AVAX", "LINK", "DOT", "ATOM", "ARB", "OP", "NEAR", "APT", "SUI", "PEPE"] as const;
const QUOTES = ["USD", "USDC", "USDT", "EUR", "GBP", "JPY"] as const;

/**
 * Every market Tickerwire follows, with its last price: a long answer, so its Bazaar output
 * example (which the 402 carries) makes the PAYMENT-REQUIRED header about 100 KiB.
 */
export const marketList: Answer = (_input, now) => {
  const hour = now.toISOString().slice(0, 13);
  const markets = VENUES.flatMap((venue) =>
    ASSETS.flatMap((asset) =>
      QUOTES.map((quoteCcy) => {
        const r = seeded(`${venue}:${asset}:${quoteCcy}:${hour}`);
        return {
          symbol: `${asset}-${quoteCcy}`,
          venue,
          last: quote(`${asset}-USD`, now),
          volume_24h: Math.round(r() * 5e8),
          spread_bps: round(0.5 + r() * 8, 2),
          status: "open",
        };
      }),
    ),
  );
  return { as_of: now.toISOString(), markets };
};

export const searchPlaces: Answer = (input) => {
  const q = text(input.q, "");
  const r = seeded(`search:${q}`);
  return { query: q, results: [{ name: q, lat: round(-60 + r() * 120, 4), lon: round(-180 + r() * 360, 4), kind: "locality" }] };
};

export const pageLinks: Answer = (input) => {
  const url = text(input.url, "https://example.com/");
  const r = seeded(`links:${url}`);
  return { url, links: Array.from({ length: 3 + Math.floor(r() * 5) }, (_, i) => `${url.replace(/\/$/, "")}/page-${i + 1}`) };
};

export const classify: Answer = (input) => {
  const body = text(input.text, "");
  return { label: /\b(price|market|stock|token)\b/i.test(body) ? "finance" : "general", confidence: 0.82, model: "digest-classify-2" };
};
