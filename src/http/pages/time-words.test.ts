import { describe, expect, it } from "vitest";
import { exactTime, relativeWords, timeAt } from "./time-words.js";

const NOW = new Date("2026-11-20T12:00:00.000Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms);

describe("relativeWords", () => {
  it("says seconds up to 2 min, minutes up to 2 h, hours up to 2 days, then days", () => {
    const cases: [number, string][] = [
      [0, "just now"],
      [400, "just now"],
      [1_000, "1 s ago"],
      [30_000, "30 s ago"],
      [119_000, "119 s ago"],
      [120_000, "2 min ago"],
      [7_199_000, "119 min ago"],
      [7_200_000, "2 h ago"],
      [172_799_000, "47 h ago"],
      [172_800_000, "2 d ago"],
      [40 * 86_400_000, "40 d ago"],
    ];
    for (const [ms, words] of cases) expect(relativeWords(ago(ms), NOW), String(ms)).toBe(words);
  });

  it("says a moment ahead as 'in …'", () => {
    expect(relativeWords(ago(-90_000), NOW)).toBe("in 90 s");
    expect(relativeWords(ago(-28 * 86_400_000), NOW)).toBe("in 28 d");
  });
});

describe("timeAt", () => {
  it("renders a focusable <time> with the exact moment in datetime, title and a span shown on focus", async () => {
    const at = ago(3 * 60_000 + 5_000);
    expect(exactTime(at)).toBe("2026-11-20 11:56:55 UTC");
    expect(String(await timeAt(at, NOW))).toBe(
      '<time class="rel" datetime="2026-11-20T11:56:55.000Z" title="2026-11-20 11:56:55 UTC" tabindex="0">3 min ago<span class="exact"> (2026-11-20 11:56:55 UTC)</span></time>',
    );
  });

  it("says 'never' (or the given words) without a moment", async () => {
    expect(String(await timeAt(null, NOW))).toBe("never");
    expect(String(await timeAt(null, NOW, "not yet"))).toBe("not yet");
  });
});
