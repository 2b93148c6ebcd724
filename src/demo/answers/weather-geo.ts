import { num, pick, round, seeded, text, type Answer } from "./seeded.js";

const SKIES = ["clear", "partly cloudy", "overcast", "light rain", "showers", "fog"] as const;

export const currentWeather: Answer = (input, now) => {
  const city = text(input.city, "Lisbon");
  const r = seeded(`${city}:${now.toISOString().slice(0, 13)}`);
  const temp = round(4 + r() * 24, 1);
  return {
    city,
    observed_at: now.toISOString(),
    temperature_c: temp,
    feels_like_c: round(temp - r() * 3, 1),
    humidity_pct: Math.round(35 + r() * 60),
    wind_kph: round(r() * 40, 1),
    conditions: pick(r, SKIES),
    source: "skycast-blend-v3",
  };
};

export const forecast: Answer = (input, now) => {
  const city = text(input.city, "Lisbon");
  const days = Math.min(10, Math.max(1, Math.round(num(input.days, 3))));
  const r = seeded(`${city}:forecast:${now.toISOString().slice(0, 10)}`);
  const day = (i: number) => {
    const low = round(2 + r() * 15, 1);
    return {
      date: new Date(now.getTime() + i * 86_400_000).toISOString().slice(0, 10),
      low_c: low,
      high_c: round(low + 4 + r() * 9, 1),
      precipitation_mm: round(r() < 0.6 ? 0 : r() * 12, 1),
      conditions: pick(r, SKIES),
    };
  };
  return { city, issued_at: now.toISOString(), days: Array.from({ length: days }, (_, i) => day(i + 1)) };
};

export const weatherHistory: Answer = (input) => {
  const city = text(input.city, "Lisbon");
  const date = text(input.date, "2019-07-14");
  const r = seeded(`${city}:${date}`);
  const low = round(8 + r() * 12, 1);
  return { city, date, low_c: low, high_c: round(low + 5 + r() * 8, 1), precipitation_mm: round(r() * 6, 1), stations: 12 };
};

const PLACES: Record<string, { lat: number; lon: number; country: string }> = {
  "brandenburg gate, berlin": { lat: 52.5163, lon: 13.3777, country: "DE" },
  "eiffel tower, paris": { lat: 48.8584, lon: 2.2945, country: "FR" },
  "shibuya crossing, tokyo": { lat: 35.6595, lon: 139.7005, country: "JP" },
};

export const geocode: Answer = (input) => {
  const query = text(input.q, "Brandenburg Gate, Berlin");
  const known = PLACES[query.toLowerCase()];
  const r = seeded(query);
  const hit = known ?? { lat: round(-60 + r() * 120, 4), lon: round(-180 + r() * 360, 4), country: "ZZ" };
  return { query, results: [{ formatted: query, ...hit, confidence: known ? 0.98 : round(0.5 + r() * 0.3, 2) }] };
};

export const reverseGeocode: Answer = (input) => {
  const lat = round(num(input.lat, 38.7223), 4);
  const lon = round(num(input.lon, -9.1393), 4);
  const r = seeded(`${lat},${lon}`);
  return {
    lat,
    lon,
    address: `${Math.ceil(r() * 200)} ${pick(r, ["Rua Augusta", "Market Street", "Hauptstrasse", "Via Roma"])}`,
    locality: pick(r, ["Lisbon", "San Francisco", "Munich", "Rome"]),
    precision_m: Math.round(5 + r() * 30),
  };
};

export const batchGeocode: Answer = (input) => {
  const queries = Array.isArray(input.queries) ? input.queries.slice(0, 100) : [];
  return { results: queries.map((q) => geocode({ q }, new Date(0))) };
};
