import { describe, expect, it } from "vitest";
import { signersFor } from "./signers.js";

describe("signersFor", () => {
  it("takes the network's own and its family's signers, lower-cased once", () => {
    const supported = { "eip155:*": ["0xAB", "0xcd"], "eip155:8453": ["0xab", "0xEF"], "eip155:1": ["0x11"], "solana:*": ["So1"] };
    expect(signersFor(supported, "eip155:8453").sort()).toEqual(["0xab", "0xcd", "0xef"]);
  });

  it("is empty for a facilitator that declares none", () => {
    expect(signersFor(undefined, "eip155:8453")).toEqual([]);
  });
});
