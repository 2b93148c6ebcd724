import { describe, expect, it } from "vitest";
import { DECIMAL_6 } from "@x402-lookout/contracts/preflight/schemas";
import { roundUsdc, toMicros, usdcDecimal } from "./money.js";
import { perUrl } from "../services/reports/batch-report.js";
import { quantile } from "../services/signals/quantile.js";

describe("money as exact decimals", () => {
  it("reads decimal strings as micro-USDC, half up at the 6th place", () => {
    expect(toMicros("2009.8")).toBe(2_009_800_000n);
    expect(toMicros("0.0000005")).toBe(1n);
    expect(toMicros("0.0000004999")).toBe(0n);
    expect(toMicros("1.")).toBe(1_000_000n);
    for (const bad of ["", "-1", "1e-7", "0x10", "1.2.3"]) expect(toMicros(bad)).toBeNull();
  });

  it("writes prices with at most 6 places and no trailing zeros; null for unknown", () => {
    expect(usdcDecimal("0.0020")).toBe("0.002");
    expect(usdcDecimal("2500.000000")).toBe("2500");
    expect(usdcDecimal("1.2345675")).toBe("1.234568");
    expect(usdcDecimal(null)).toBeNull();
    expect(usdcDecimal("")).toBeNull();
  });

  it("rounds numbers that carry float artefacts to the decimal they stand for", () => {
    // Each of these is what plain float arithmetic on prices gives today.
    expect(String(0.1 + 0.2)).toBe("0.30000000000000004");
    expect(roundUsdc(0.1 + 0.2)).toBe(0.3);
    expect(roundUsdc(2009.8000000000002)).toBe(2009.8);
    expect(String(roundUsdc(1519.6 + 490.20000000000005))).toBe("2009.8");
    expect(roundUsdc(0.44999999999999996)).toBe(0.45);
    expect(roundUsdc(null)).toBeNull();
    expect(roundUsdc(Number.NaN)).toBeNull();
  });

  it("group quantiles of prices come out exact", () => {
    // Unrounded, these are 0.15000000000000002, 0.19000000000000003 and 0.44999999999999996.
    expect(String(quantile([0.1, 0.2], 0.5))).toBe("0.15");
    expect(String(quantile([0.1, 0.2], 0.9))).toBe("0.19");
    expect(String(quantile([0.3, 0.6], 0.5))).toBe("0.45");
    expect(quantile([], 0.5)).toBeNull();
  });

  it("splits the batch price over any count of URLs as an exact decimal", () => {
    for (let n = 1; n <= 50; n++) expect(perUrl("0.025", n)).toMatch(DECIMAL_6);
    expect(perUrl("0.025", 3)).toBe("0.008333");
    expect(perUrl("0.025", 7)).toBe("0.003571");
  });
});
