import { describe, expect, it } from "vitest";
import { planReads } from "./plan.js";

const limits = { rangeBlocks: 100n, rereadBlocks: 5n, maxRanges: 10 };

describe("planReads", () => {
  it("reads the tail's new blocks with the re-read window", () => {
    expect(planReads([{ syncedTo: 50n, fromBlock: 0n, payTos: ["0xa"] }], 60n, limits)).toEqual([{ from: 46n, to: 60n, payTos: ["0xa"], syncedTo: 50n }]);
  });

  it("reads nothing for a group at the head", () => {
    expect(planReads([{ syncedTo: 60n, fromBlock: 0n, payTos: ["0xa"] }], 60n, limits)).toEqual([]);
  });

  it("backfills a new group one range at a time from its first block, after the tail", () => {
    const reads = planReads(
      [
        { syncedTo: 999n, fromBlock: 1000n, payTos: ["0xnew"] },
        { syncedTo: 5000n, fromBlock: 0n, payTos: ["0xold"] },
      ],
      5002n,
      limits,
    );
    expect(reads).toEqual([
      { from: 4996n, to: 5002n, payTos: ["0xold"], syncedTo: 5000n },
      { from: 1000n, to: 1099n, payTos: ["0xnew"], syncedTo: 999n },
    ]);
  });

  it("reads the window again up to the head when the chain went back", () => {
    expect(planReads([{ syncedTo: 70n, fromBlock: 0n, payTos: ["0xa"] }], 60n, limits)).toEqual([{ from: 56n, to: 60n, payTos: ["0xa"], syncedTo: 70n }]);
  });

  it("caps the ranges of one step", () => {
    const groups = [1n, 2n, 3n].map((s) => ({ syncedTo: s * 10n, fromBlock: 0n, payTos: [`0x${s}`] }));
    expect(planReads(groups, 500n, { ...limits, maxRanges: 2 }).map((r) => r.payTos[0])).toEqual(["0x3", "0x1"]);
  });
});
