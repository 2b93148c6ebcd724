import { quote } from "./markets-web.js";
import { round, seeded, text, type Answer } from "./seeded.js";

/** Mirage Labs' APIs: plausible market and news answers behind the quote traps. */

export const fxRate: Answer = (input, now) => {
  const base = text(input.base, "EUR").toUpperCase();
  const target = text(input.quote, "USD").toUpperCase();
  const r = seeded(`${base}${target}:${Math.floor(now.getTime() / 60_000)}`);
  return { base, quote: target, rate: round(0.8 + r() * 0.6, 5), as_of: now.toISOString(), source: "interbank mid" };
};

export const newsSearch: Answer = (input, now) => {
  const q = text(input.q, "stablecoin regulation");
  const r = seeded(`news:${q}`);
  const outlets = ["Ledger Times", "Chain Courier", "Market Wire"];
  return {
    query: q,
    results: outlets.map((outlet, i) => ({
      title: `${q[0]!.toUpperCase()}${q.slice(1)}: what changed this week`,
      outlet,
      published_at: new Date(now.getTime() - (i + 1) * Math.round(r() * 7_200_000)).toISOString(),
    })),
  };
};

export const stockQuote: Answer = (input, now) => {
  const symbol = text(input.symbol, "AAPL").toUpperCase();
  const r = seeded(`${symbol}:${Math.floor(now.getTime() / 60_000)}`);
  return { symbol, price: round(50 + r() * 400, 2), currency: "USD", delayed_minutes: 15, as_of: now.toISOString() };
};

export const tokenPrice: Answer = (input, now) => {
  const pair = text(input.pair, "ETH-USD").toUpperCase();
  return { pair, price: quote(pair, now), as_of: now.toISOString(), venues: 12 };
};
