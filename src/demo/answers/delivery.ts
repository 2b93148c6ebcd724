import { pick, round, seeded, type Answer } from "./seeded.js";

/** Answers of Northwind Data's listings (plan/delivery.ts): what each should deliver once paid. */

export const FX_CURRENCIES = ["EUR", "USD", "GBP", "JPY", "CHF"] as const;
export const FX_PAIRS = ["EUR-USD", "GBP-USD", "USD-JPY", "USD-CHF"] as const;
export const CRYPTO_SYMBOLS = ["BTC", "ETH", "SOL", "AVAX"] as const;
export const GAS_CHAINS = ["ethereum", "base", "arbitrum", "optimism"] as const;
export const LEAGUES = ["premier-league", "la-liga", "serie-a", "bundesliga"] as const;

const TEAMS: Record<(typeof LEAGUES)[number], readonly string[]> = {
  "premier-league": ["Arsenal", "Liverpool", "Manchester City", "Chelsea", "Newcastle", "Aston Villa"],
  "la-liga": ["Real Madrid", "Barcelona", "Atletico Madrid", "Girona", "Athletic Club", "Real Sociedad"],
  "serie-a": ["Inter", "Juventus", "Milan", "Napoli", "Atalanta", "Roma"],
  bundesliga: ["Leverkusen", "Bayern", "Stuttgart", "Dortmund", "Leipzig", "Frankfurt"],
};

/** The input's value when it is one the listing declares, else its first one (as a lenient API would). */
const oneOf = <T extends string>(value: unknown, allowed: readonly T[]): T => ((allowed as readonly unknown[]).includes(value) ? (value as T) : allowed[0]!);
const minute = (now: Date) => `${now.toISOString().slice(0, 16)}:00.000Z`;

export const fxLatest: Answer = (input, now) => {
  const base = oneOf(input.base, FX_CURRENCIES);
  const r = seeded(`fx:${base}:${minute(now)}`);
  const rates = Object.fromEntries(FX_CURRENCIES.filter((c) => c !== base).map((c) => [c, round(0.005 + r() * 160, 4)]));
  return { base, as_of: minute(now), rates };
};

export const fxHistory: Answer = (input, now) => {
  const pair = oneOf(input.pair, FX_PAIRS);
  const r = seeded(`fxh:${pair}:${now.toISOString().slice(0, 10)}`);
  const closes = Array.from({ length: 7 }, (_, i) => ({
    date: new Date(now.getTime() - (7 - i) * 86_400_000).toISOString().slice(0, 10),
    close: round(0.6 + r() * 150, 4),
  }));
  return { pair, interval: "1d", closes };
};

export const cryptoTicker: Answer = (input, now) => {
  const symbol = oneOf(input.symbol, CRYPTO_SYMBOLS);
  const r = seeded(`ticker:${symbol}:${minute(now)}`);
  return { symbol, price_usd: round(5 + r() * 70_000, 2), change_24h_pct: round(-8 + r() * 16, 2), as_of: minute(now) };
};

export const gasPrice: Answer = (input, now) => {
  const chain = oneOf(input.chain, GAS_CHAINS);
  const r = seeded(`gas:${chain}:${minute(now)}`);
  return { chain, base_fee_gwei: round(r() * 40, 3), priority_fee_gwei: round(r() * 2, 3), block: 19_000_000 + Math.floor(r() * 1e6) };
};

export const standings: Answer = (input, now) => {
  const league = oneOf(input.league, LEAGUES);
  const r = seeded(`table:${league}:${now.toISOString().slice(0, 10)}`);
  const table = TEAMS[league].map((team) => ({ team, played: 20, points: 20 + Math.floor(r() * 30) })).sort((a, b) => b.points - a.points);
  return { league, season: "2026-27", table };
};

export const matchOdds: Answer = (input, now) => {
  const league = oneOf(input.league, LEAGUES);
  const r = seeded(`odds:${league}:${now.toISOString().slice(0, 10)}`);
  const [home, away] = [pick(r, TEAMS[league].slice(0, 3)), pick(r, TEAMS[league].slice(3))];
  return {
    league,
    fixtures: [
      {
        home,
        away,
        kickoff: new Date(now.getTime() + 2 * 86_400_000).toISOString().slice(0, 10),
        odds: { home: round(1.5 + r() * 2, 2), draw: round(3 + r(), 2), away: round(2 + r() * 3, 2) },
      },
    ],
  };
};

/**
 * An answer outside its declared schema, as an API that changed shape behind its listing sends:
 * the first required property missing, and every top-level number a string.
 */
export function offSchema(answer: unknown, schema: Record<string, unknown> | undefined): unknown {
  if (answer === null || typeof answer !== "object" || Array.isArray(answer)) return answer;
  const dropped = (schema?.required as string[] | undefined)?.[0];
  const entries = Object.entries(answer).filter(([k]) => k !== dropped);
  return Object.fromEntries(entries.map(([k, v]) => [k, typeof v === "number" ? String(v) : v]));
}
