import pg from "pg";

/**
 * One JS type per PostgreSQL type, whichever driver runs the query:
 *   timestamptz -> Date, int8 / count(*) -> number, numeric -> string (exact money),
 *   date -> 'YYYY-MM-DD' string, interval -> string, jsonb/json -> parsed value,
 *   bytea -> Buffer, arrays -> JS arrays of the element type.
 * Both sides get these overrides so code and tests never branch on the dialect.
 */

export const PG_OID = {
  BYTEA: 17,
  INT8: 20,
  TEXT_ARRAY: 1009,
  INT8_ARRAY: 1016,
  DATE: 1082,
  TIMESTAMPTZ: 1184,
  TIMESTAMPTZ_ARRAY: 1185,
  DATE_ARRAY: 1182,
  INTERVAL: 1186,
  INTERVAL_ARRAY: 1187,
  NUMERIC: 1700,
  NUMERIC_ARRAY: 1231,
} as const;

/** int8 -> number; refuses values a JS number cannot hold exactly instead of rounding them. */
export function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) {
    throw new RangeError(`int8 value ${text} is outside the safe JavaScript integer range; cast it to numeric or text in SQL`);
  }
  return n;
}

const asText = (text: string): string => text;

// bytea_output is 'hex' by default on both servers: "\x0102..."
function parseByteaHex(text: string): Buffer {
  if (!text.startsWith("\\x")) throw new Error("bytea value is not in hex output format; set bytea_output = 'hex'");
  return Buffer.from(text.slice(2), "hex");
}

type Nested<T> = T | null | Nested<T>[];

function mapNested<T>(value: Nested<string>, fn: (s: string) => T): Nested<T> {
  if (value === null) return null;
  if (Array.isArray(value)) return value.map((v) => mapNested(v, fn));
  return fn(value);
}

// pg's TypeId enum lists element types only; array OIDs are valid arguments all the same.
const builtinParser = pg.types.getTypeParser as (oid: number, format?: "text" | "binary") => (text: string) => unknown;
const parseTextArray = builtinParser(PG_OID.TEXT_ARRAY) as (text: string) => Nested<string>;
const arrayOf =
  <T>(fn: (s: string) => T) =>
  (text: string): Nested<T> =>
    mapNested(parseTextArray(text), fn);

const parseTimestamptzSlow = builtinParser(PG_OID.TIMESTAMPTZ) as (text: string) => Date;

/** The number in text[at, at + n) when it is all digits, else -1. */
function digits(text: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/**
 * timestamptz as PostgreSQL writes it ('2026-11-22 10:00:00.123456+00', offsets +-HH or
 * +-HH:MM, four-digit years), read without a regular expression: node-postgres' own parser
 * (postgres-date) was a quarter of the time of reading 100,000 listing rows. Anything else
 * (infinity, BC, offsets with seconds, other years) goes to that parser. Fractions are truncated
 * to milliseconds, as there.
 */
export function parseTimestamptz(text: string): Date {
  const n = text.length;
  if (n < 22 || text[4] !== "-" || text[7] !== "-" || text[10] !== " " || text[13] !== ":" || text[16] !== ":") return parseTimestamptzSlow(text);
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  let i = 19;
  let ms = 0;
  if (text[i] === ".") {
    const start = ++i;
    while (i < n && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
    const fraction = text.slice(start, Math.min(i, start + 3)).padEnd(3, "0");
    ms = i > start ? digits(fraction, 0, 3) : -1;
  }
  const sign = text[i] === "+" ? 1 : text[i] === "-" ? -1 : 0;
  const offsetHours = digits(text, i + 1, 2);
  const offsetMinutes = i + 3 === n ? 0 : text[i + 3] === ":" && i + 6 === n ? digits(text, i + 4, 2) : -1;
  if (year < 1000 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0 || ms < 0 || sign === 0 || offsetHours < 0 || offsetMinutes < 0) {
    return parseTimestamptzSlow(text);
  }
  const offsetMs = sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMs);
}

/** Parser overrides for node-postgres (per pool, never the process-wide registry). */
const PG_OVERRIDES: Record<number, (text: string) => unknown> = {
  [PG_OID.INT8]: parseInt8,
  [PG_OID.INT8_ARRAY]: arrayOf(parseInt8),
  [PG_OID.TIMESTAMPTZ]: parseTimestamptz,
  [PG_OID.TIMESTAMPTZ_ARRAY]: arrayOf(parseTimestamptz),
  [PG_OID.DATE]: asText,
  [PG_OID.DATE_ARRAY]: arrayOf(asText),
  [PG_OID.INTERVAL]: asText,
  [PG_OID.INTERVAL_ARRAY]: arrayOf(asText),
  [PG_OID.NUMERIC]: asText,
  [PG_OID.NUMERIC_ARRAY]: arrayOf(asText),
};

export const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    ((format ?? "text") === "text" ? PG_OVERRIDES[oid] : undefined) ?? builtinParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

/**
 * Parser overrides for PGlite. PGlite derives every array parser from its element parser, so
 * element types are enough here.
 */
export const pgliteParsers: Record<number, (text: string) => unknown> = {
  [PG_OID.BYTEA]: parseByteaHex,
  [PG_OID.INT8]: parseInt8,
  [PG_OID.DATE]: asText,
  [PG_OID.INTERVAL]: asText,
  [PG_OID.NUMERIC]: asText,
};
