import { describe, expect, it } from "vitest";
import { readChallengeObject } from "@x402-lookout/contracts/quote";
import { priceUsdcOf, selectAccept } from "./challenge.js";

const SOLANA = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
const SOL_USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const BASE_USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

const challenge = readChallengeObject({
  x402Version: 1,
  accepts: [
    { scheme: "exact", network: "base", maxAmountRequired: "3000", asset: BASE_USDC, payTo: "0x" + "a".repeat(40) },
    { scheme: "exact", network: "solana", maxAmountRequired: "2500", asset: SOL_USDC.toLowerCase(), payTo: "LowerMintPayee" },
    { scheme: "exact", network: "solana", maxAmountRequired: "2600", asset: SOL_USDC, payTo: "SolPayee" },
  ],
})!;

describe("the prober's reading of Solana and v1 challenges", () => {
  it("picks the entry on the listing's CAIP-2 network from v1 names, matching a base58 mint exactly", () => {
    expect(selectAccept(challenge, { network: SOLANA, asset: SOL_USDC })).toMatchObject({ network: "solana", amount: "2600", payTo: "SolPayee" });
    // Network only: the first exact entry on it, whatever its asset.
    expect(selectAccept(challenge, { network: SOLANA, asset: null })).toMatchObject({ amount: "2500" });
    // EVM addresses still match whatever their checksum case.
    expect(selectAccept(challenge, { network: "eip155:8453", asset: BASE_USDC.toLowerCase() })).toMatchObject({ network: "base", amount: "3000" });
  });

  it("prices in USDC only what pays its network's USDC; other assets keep their own units", () => {
    const [base, lowered, sol] = challenge.accepts as [never, never, never];
    expect(priceUsdcOf(base)).toBe("0.003");
    expect(priceUsdcOf(sol)).toBe("0.0026");
    expect(priceUsdcOf(lowered)).toBeNull();
    expect(priceUsdcOf({ ...(base as object), asset: "0x" + "b".repeat(40) } as never)).toBeNull();
    expect(priceUsdcOf({ ...(base as object), network: "eip155:137", asset: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359" } as never)).toBe("0.003");
  });
});
