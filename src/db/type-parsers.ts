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

/** Parser overrides for node-postgres (per pool, never the process-wide registry). */
const PG_OVERRIDES: Record<number, (text: string) => unknown> = {
  [PG_OID.INT8]: parseInt8,
  [PG_OID.INT8_ARRAY]: arrayOf(parseInt8),
  [PG_OID.DATE]: asText,
  [PG_OID.DATE_ARRAY]: arrayOf(asText),
  [PG_OID.INTERVAL]: asText,
  [PG_OID.INTERVAL_ARRAY]: arrayOf(asText),
  [PG_OID.NUMERIC]: asText,
  [PG_OID.NUMERIC_ARRAY]: arrayOf(asText),
};

export const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    ((format ?? "text") === "text" ? PG_OVERRIDES[oid] : undefined) ??
    builtinParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
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
