import { num, pick, round, seeded, text, type Answer } from "./seeded.js";

const BASE_PRICES: Record<string, number> = { "BTC-USD": 67_250, "ETH-USD": 3_480, "SOL-USD": 162, "DOGE-USD": 0.16 };

const pairOf = (input: Record<string, unknown>) => text(input.pair, "ETH-USD").toUpperCase();

/** A price that drifts with the minute, so repeated calls look like a live feed. */
export function quote(pair: string, now: Date): number {
  const base = BASE_PRICES[pair] ?? 1;
  const r = seeded(`${pair}:${Math.floor(now.getTime() / 60_000)}`);
  return round(base * (1 + (r() - 0.5) * 0.01), base < 1 ? 5 : 2);
}

export const spotPrice: Answer = (input, now) => {
  const pair = pairOf(input);
  return { pair, price: quote(pair, now), as_of: now.toISOString(), venues: 7 };
};

export const ohlc: Answer = (input, now) => {
  const pair = pairOf(input);
  const interval = text(input.interval, "1h");
  const r = seeded(`${pair}:${interval}:${now.toISOString().slice(0, 13)}`);
  const close = quote(pair, now);
  const candle = (i: number) => {
    const open = round(close * (1 + (r() - 0.5) * 0.02), 2);
    return {
      t: new Date(now.getTime() - i * 3_600_000).toISOString(),
      o: open,
      h: round(Math.max(open, close) * 1.004, 2),
      l: round(Math.min(open, close) * 0.996, 2),
      c: close,
    };
  };
  return { pair, interval, candles: [1, 2, 3].map(candle) };
};

export const fundingRates: Answer = (_input, now) => {
  const r = seeded(`funding:${now.toISOString().slice(0, 13)}`);
  return { as_of: now.toISOString(), rates: ["BTC-PERP", "ETH-PERP", "SOL-PERP"].map((m) => ({ market: m, rate_8h: round((r() - 0.4) * 0.0004, 6) })) };
};

export const oraclePrice = (path: string, now: Date): unknown => {
  const pair = (path.split("/")[3] ?? "BTC-USD").toUpperCase();
  return { pair, price: quote(pair, now), as_of: now.toISOString(), oracle: "oracle-pulse", signers: 5 };
};

export const scrapePage: Answer = (input, now) => {
  const url = text(input.url, "https://example.com/");
  const r = seeded(url);
  return {
    url,
    fetched_at: now.toISOString(),
    status: 200,
    title: `${pick(r, ["Pricing", "Docs", "Blog", "Changelog"])} | ${new URL(url, "https://example.com").hostname}`,
    text_chars: Math.round(2_000 + r() * 30_000),
    links: Math.round(10 + r() * 120),
    render: input.render_js === true ? "headless-chromium" : "static",
  };
};

export const extractData: Answer = (input) => {
  const url = text(input.url, "https://example.com/pricing");
  const fields = Array.isArray(input.fields) ? input.fields.map(String).slice(0, 20) : ["title"];
  const r = seeded(url);
  return { url, data: Object.fromEntries(fields.map((f) => [f, `${f} #${Math.floor(r() * 1000)}`])) };
};

export const dailyBrief: Answer = (_input, now) => ({
  date: now.toISOString().slice(0, 10),
  headline: "Risk-on tilt as funding normalises",
  positioning: { btc: "neutral", eth: "overweight" },
  confidence: round(0.55 + seeded(now.toISOString().slice(0, 10))() * 0.3, 2),
});

export const whaleAlerts: Answer = (input, now) => ({
  since: now.toISOString(),
  min_usd: num(input.min_usd, 1_000_000),
  alerts: [{ asset: "ETH", usd: 14_200_000, direction: "exchange_inflow" }],
});

export const institutionalFlow: Answer = (input) => ({ asset: text(input.asset, "BTC"), net_flow_usd_24h: 412_000_000, desks: 9 });
