import pg from "pg";
import { describe, expect, it } from "vitest";
import { parseTimestamptz } from "./type-parsers.js";

const postgresDate = pg.types.getTypeParser(1184) as (text: string) => Date | number;
const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, "0");

/** `instant` as PostgreSQL prints a timestamptz in a session at `offsetMinutes` from UTC, with `micros` more microseconds. */
function pgText(instant: number, offsetMinutes: number, micros: number, fractionDigits: number): string {
  const local = new Date(instant + offsetMinutes * 60_000);
  const date = `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
  const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  const fraction = `${pad(local.getUTCMilliseconds(), 3)}${pad(micros, 3)}`.slice(0, fractionDigits).replace(/0+$/, "");
  const sign = offsetMinutes < 0 ? "-" : "+";
  const offset = `${sign}${pad(Math.trunc(offsetMinutes / 60))}${offsetMinutes % 60 === 0 ? "" : `:${pad(offsetMinutes % 60)}`}`;
  return `${date} ${time}${fraction ? `.${fraction}` : ""}${offset}`;
}

describe("parseTimestamptz", () => {
  it("reads PostgreSQL's output to the millisecond in any session offset, with 0 to 6 fraction digits", () => {
    const offsets = [0, 60, -300, 330, 345, -570, 840, -720];
    for (let k = 0; k < 5_000; k++) {
      const instant = Math.floor(Date.UTC(1990, 0, 1) + Math.random() * 60 * 365 * 86_400_000);
      const digits = k % 7;
      const text = pgText(instant, offsets[k % offsets.length]!, Math.floor(Math.random() * 1000), digits);
      const kept = digits >= 3 ? instant : instant - (instant % 10 ** (3 - digits));
      expect(parseTimestamptz(text).getTime(), text).toBe(kept);
    }
  });

  it("agrees with node-postgres' parser on ordinary values", () => {
    for (const text of ["2026-11-22 10:00:00+00", "2026-11-22 10:00:00.5+00", "2026-02-28 23:59:59.999999-08", "2024-02-29 12:00:00.123+05:30"]) {
      expect(parseTimestamptz(text)).toEqual(postgresDate(text));
    }
  });

  it("hands everything else to node-postgres' parser", () => {
    for (const text of [
      "infinity",
      "-infinity",
      "0044-03-15 12:00:00+00 BC",
      "1900-01-01 00:00:00+00:09:21",
      "0099-01-01 00:00:00+00",
      "2026-11-22 10:00:00.+00",
    ]) {
      expect(parseTimestamptz(text)).toEqual(postgresDate(text));
    }
  });
});
