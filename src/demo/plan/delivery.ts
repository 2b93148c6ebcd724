import {
  CRYPTO_SYMBOLS,
  FX_CURRENCIES,
  FX_PAIRS,
  GAS_CHAINS,
  LEAGUES,
  cryptoTicker,
  fxHistory,
  fxLatest,
  gasPrice,
  matchOdds,
  standings,
} from "../answers/delivery.js";
import { listing, used, type ListingSpec, type ServiceSpec } from "./listing-spec.js";

const fx: ServiceSpec = { serviceName: "Northwind FX", provider: "northwind", tags: ["fx", "finance"] };
const cryptoFeed: ServiceSpec = { serviceName: "Northwind Crypto", provider: "northwind", tags: ["crypto", "price-feed"] };
const sports: ServiceSpec = { serviceName: "Northwind Sports", provider: "northwind", tags: ["sports", "data"] };

type FieldType = "string" | "number" | "integer" | "object" | "array";

/** An object schema whose every listed property is required, in the order given. */
const objectOf = (fields: Record<string, FieldType | Record<string, unknown>>): Record<string, unknown> => ({
  type: "object",
  properties: Object.fromEntries(Object.entries(fields).map(([k, t]) => [k, typeof t === "string" ? { type: t } : t])),
  required: Object.keys(fields),
});

/** One required query parameter taking one of `values`: a checker varies the input by picking another. */
const choice = (name: string, values: readonly string[], description: string) => ({
  properties: { [name]: { type: "string", enum: [...values], description } },
  required: [name],
});

/**
 * Northwind Data on a host of its own: every listing settles the payment before it answers (the
 * settle-first server, servers/delivery-app.ts), then answers as its kind says. One delivers; five
 * take the money and fail each its own way. Their probes all see a proper challenge.
 */
export const DELIVERY_LISTINGS: readonly ListingSpec[] = [
  listing(fx, {
    kind: "paid_ok",
    method: "GET",
    path: "/fx/latest",
    price: "0.002",
    input: { base: "EUR" },
    inputSchema: choice("base", FX_CURRENCIES, "Base currency"),
    outputSchema: objectOf({ base: "string", as_of: "string", rates: "object" }),
    answer: fxLatest,
    quality: used(6_420, 233, 1),
    description: "Latest exchange rates against a base currency, refreshed every minute.",
  }),
  listing(fx, {
    kind: "paid_500",
    method: "GET",
    path: "/fx/history",
    price: "0.005",
    input: { pair: "EUR-USD" },
    inputSchema: choice("pair", FX_PAIRS, "Currency pair"),
    outputSchema: objectOf({ pair: "string", interval: "string", closes: { type: "array", items: objectOf({ date: "string", close: "number" }) } }),
    answer: fxHistory,
    quality: used(1_890, 77, 30),
    description: "Daily closes of a currency pair over the last seven days.",
  }),
  listing(cryptoFeed, {
    kind: "paid_off_schema",
    method: "GET",
    path: "/crypto/ticker",
    price: "0.003",
    input: { symbol: "BTC" },
    inputSchema: choice("symbol", CRYPTO_SYMBOLS, "Asset symbol"),
    outputSchema: objectOf({ symbol: "string", price_usd: "number", change_24h_pct: "number", as_of: "string" }),
    answer: cryptoTicker,
    quality: used(4_310, 168, 1),
    description: "Spot price in USD and 24-hour change of a crypto asset.",
  }),
  listing(cryptoFeed, {
    kind: "paid_empty",
    method: "GET",
    path: "/crypto/gas",
    price: "0.002",
    input: { chain: "ethereum" },
    inputSchema: choice("chain", GAS_CHAINS, "Chain name"),
    outputSchema: objectOf({ chain: "string", base_fee_gwei: "number", priority_fee_gwei: "number", block: "integer" }),
    answer: gasPrice,
    quality: used(2_750, 96, 26),
    description: "Current base and priority fee of an EVM chain, in gwei.",
  }),
  listing(sports, {
    kind: "paid_canned",
    method: "GET",
    path: "/sports/standings",
    price: "0.004",
    input: { league: "premier-league" },
    inputSchema: choice("league", LEAGUES, "League slug"),
    outputSchema: objectOf({
      league: "string",
      season: "string",
      table: { type: "array", items: objectOf({ team: "string", played: "integer", points: "integer" }) },
    }),
    answer: standings,
    quality: used(1_320, 58, 4),
    description: "Current league table: played and points per team.",
  }),
  listing(sports, {
    kind: "paid_401",
    method: "GET",
    path: "/sports/odds",
    price: "0.006",
    input: { league: "premier-league" },
    inputSchema: choice("league", LEAGUES, "League slug"),
    outputSchema: objectOf({ league: "string", fixtures: "array" }),
    answer: matchOdds,
    quality: used(980, 44, 40),
    description: "Bookmaker odds for a league's next fixtures.",
  }),
];
