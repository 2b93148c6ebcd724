import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE, profileFor } from "../../src/services/probes/profiles.js";

const start = Date.parse("2026-11-20T12:00:00Z");

/** A listing's profiles over `n` probes 10 minutes apart, each knowing the one before. */
function series(listingId: number, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(profileFor(listingId, new Date(start + i * 600_000), out.at(-1) ?? null));
  return out;
}

describe("probe profiles", () => {
  it("alternate the default with another, starting with the default, so three probes show two profiles", () => {
    for (let id = 1; id <= 200; id++) {
      const s = series(id, 7);
      expect(s.filter((_, i) => i % 2 === 0).every((p) => p === DEFAULT_PROFILE)).toBe(true);
      expect(s.filter((_, i) => i % 2 === 1).some((p) => p === DEFAULT_PROFILE)).toBe(false);
    }
  });

  it("vary the other profile by listing and instant, and repeat it for the same ones", () => {
    const others = new Set(Array.from({ length: 200 }, (_, id) => series(id, 2)[1]));
    expect(others).toEqual(new Set(["axios", "httpx", "browser"]));
    expect(series(7, 9)).toEqual(series(7, 9));
  });

  it("answer the default after any profile that is not it, including one no longer in the table", () => {
    expect(profileFor(1, new Date(start), "browser")).toBe(DEFAULT_PROFILE);
    expect(profileFor(1, new Date(start), "retired-profile")).toBe(DEFAULT_PROFILE);
  });
});
