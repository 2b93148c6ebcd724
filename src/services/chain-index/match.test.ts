import { describe, expect, it } from "vitest";
import { matchSettlements } from "./match.js";

const t = (txHash: string, logIndex: number, from: string, value = 1000n) => ({
  txHash,
  logIndex,
  blockNumber: 1n,
  blockHash: "0xb",
  from,
  to: "0xpay",
  value,
});
const a = (txHash: string, logIndex: number, authorizer: string, nonce: string) => ({ txHash, logIndex, authorizer, nonce });

describe("matchSettlements", () => {
  it("pairs a transfer with its payer's authorization in the same transaction", () => {
    expect(matchSettlements([t("0x1", 1, "0xp")], [a("0x1", 0, "0xp", "0xn")])).toEqual([{ ...t("0x1", 1, "0xp"), nonce: "0xn" }]);
  });

  it("drops plain transfers and authorizations of another payer or transaction", () => {
    expect(matchSettlements([t("0x1", 1, "0xp"), t("0x2", 1, "0xq")], [a("0x1", 0, "0xother", "0xn"), a("0x3", 0, "0xq", "0xm")])).toEqual([]);
  });

  it("uses each authorization once when one transaction settles several of one payer", () => {
    const out = matchSettlements([t("0x1", 3, "0xp"), t("0x1", 1, "0xp"), t("0x1", 5, "0xp")], [a("0x1", 0, "0xp", "0xa"), a("0x1", 2, "0xp", "0xb")]);
    expect(out.map((s) => [s.logIndex, s.nonce])).toEqual([
      [1, "0xa"],
      [3, "0xb"],
    ]);
  });
});
