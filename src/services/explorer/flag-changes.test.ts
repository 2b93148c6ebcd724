import { describe, expect, it } from "vitest";
import { flagChanges, type FlagDay } from "./flag-changes.js";

const TODAY = "2026-11-20";
const row = (listingId: number, day: string, reasons: string[], time = "06:00:00"): FlagDay => ({
  listingId,
  day,
  reasons,
  recordedAt: new Date(`${day}T${time}.000Z`),
});

describe("flagChanges, a provider's incident timeline from the daily flag records", () => {
  it("names each flag start (at the moment first recorded), reason change and clearing in the 7 days, newest first", () => {
    const rows = [
      row(1, "2026-11-13", ["dead"]), // the day before the window: where listing 1 started from
      row(1, "2026-11-14", ["dead"]),
      row(1, "2026-11-15", ["dead", "mostly_dead"]),
      row(2, "2026-11-18", ["ghost_listing"], "09:30:00"),
      row(2, "2026-11-19", ["ghost_listing"]),
      row(2, "2026-11-20", ["ghost_listing"]),
    ];
    expect(flagChanges(rows, TODAY)).toEqual([
      {
        listingId: 2,
        kind: "flagged",
        day: "2026-11-18",
        at: new Date("2026-11-18T09:30:00.000Z"),
        reasons: ["ghost_listing"],
        added: ["ghost_listing"],
        removed: [],
      },
      { listingId: 1, kind: "cleared", day: "2026-11-16", at: null, reasons: ["dead", "mostly_dead"], added: [], removed: ["dead", "mostly_dead"] },
      { listingId: 1, kind: "changed", day: "2026-11-15", at: null, reasons: ["dead", "mostly_dead"], added: ["mostly_dead"], removed: [] },
    ]);
  });

  it("leaves out changes before the window, and a flag that held all week", () => {
    const rows = [row(1, "2026-11-10", ["dead"]), row(1, "2026-11-11", ["dead"])];
    for (let d = 13; d <= 20; d++) rows.push(row(2, `2026-11-${d}`, ["dead"]));
    expect(flagChanges(rows, TODAY)).toEqual([]);
  });

  it("reads a flag that began on the window's first day as flagged, and one ending yesterday as cleared today", () => {
    const changes = flagChanges([row(3, "2026-11-14", ["dead"]), row(3, "2026-11-19", ["dead"])], TODAY);
    expect(changes.map((c) => [c.kind, c.day])).toEqual([
      ["cleared", "2026-11-20"],
      ["flagged", "2026-11-19"],
      ["cleared", "2026-11-15"],
      ["flagged", "2026-11-14"],
    ]);
  });
});
