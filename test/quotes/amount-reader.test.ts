import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAmount } from "@x402-lookout/contracts/amount";
import { canonicalJson, canonicalTerms, readChallengeObject, requirementDigest } from "@x402-lookout/contracts/quote";

interface Vector {
  name: string;
  entry: Record<string, unknown>;
  canonical: string;
  digest: string;
}
const vectors = JSON.parse(readFileSync(new URL("../fixtures/requirement-vectors.json", import.meta.url), "utf8")) as Vector[];
const docs = readFileSync(new URL("../../docs/verdicts.md", import.meta.url), "utf8");
const RESOURCE = { url: "https://api.example/weather" };
const read = (entry: Record<string, unknown>, x402Version = 2) => readChallengeObject({ x402Version, resource: RESOURCE, accepts: [entry] })!.accepts[0]!;

describe("the one amount reader", () => {
  it("accepts only canonical decimal integers within uint256", () => {
    for (const ok of ["0", "1", "1000", (2n ** 256n - 1n).toString()]) expect(readAmount(ok), ok).toMatchObject({ ok: true, text: ok });
    const bad: Array<[unknown, string]> = [
      ["", "missing"],
      [undefined, "missing"],
      ["007", "not_canonical"],
      ["0x10", "not_canonical"],
      ["1e3", "not_canonical"],
      ["-1", "not_canonical"],
      ["+1", "not_canonical"],
      [" 1", "not_canonical"],
      ["1 ", "not_canonical"],
      ["1.0", "not_canonical"],
      [1000, "not_a_string"],
      [(2n ** 256n).toString(), "beyond_uint256"],
    ];
    for (const [value, problem] of bad) expect(readAmount(value), String(value)).toMatchObject({ ok: false, problem });
  });

  it("marks the entry a client would sign differently from what it shows, with what it would sign", () => {
    const padded = read({ scheme: "exact", network: "eip155:84532", amount: "0".repeat(34) + "999999", maxAmountRequired: "1000" });
    expect(padded).toMatchObject({ amount: "999999", malformed: "amount_not_canonical" });
    expect(read({ scheme: "exact", network: "eip155:84532", amount: "1000", maxAmountRequired: "999" })).toMatchObject({ malformed: "amounts_disagree" });
    // v1 signs maxAmountRequired: a v2-only `amount` beside it must agree too.
    expect(read({ scheme: "exact", network: "base-sepolia", maxAmountRequired: "1000", amount: "1000" }, 1)).toMatchObject({ amount: "1000", malformed: null });
    expect(read({ scheme: "exact", network: "base-sepolia", maxAmountRequired: "01000" }, 1)).toMatchObject({
      amount: "1000",
      malformed: "amount_not_canonical",
    });
  });

  it("gives the published test vectors' canonical texts and digests (docs/verdicts.md)", async () => {
    expect(vectors.length).toBeGreaterThanOrEqual(10);
    for (const v of vectors) {
      const t = read(v.entry);
      expect(canonicalTerms(t), v.name).toBe(v.canonical);
      expect(await requirementDigest(t), v.name).toBe(v.digest);
      expect(docs, v.name).toContain(v.digest);
    }
  });
});

// What an x402 exact client signs for an entry: each field that changes the signature, read as the client reads it.
function signedMeaning(e: { amount: string; payTo: string; asset: string; scheme: string; network: string; maxTimeoutSeconds: number; extra: object }) {
  let value: string;
  try {
    value = BigInt(e.amount).toString();
  } catch {
    value = "unsignable";
  }
  return JSON.stringify([e.scheme, e.network, e.asset.toLowerCase(), e.payTo.toLowerCase(), value, e.maxTimeoutSeconds, canonicalJson(e.extra)]);
}

describe("the requirement digest", () => {
  const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-fA-F]{${n}}$`));
  const amount = fc.oneof(
    fc.bigInt({ min: 0n, max: 10n ** 12n }).map(String),
    fc.tuple(fc.integer({ min: 1, max: 4 }), fc.bigInt({ min: 0n, max: 10n ** 6n })).map(([zeros, n]) => "0".repeat(zeros) + String(n)),
    fc.bigInt({ min: 0n, max: 10n ** 6n }).map((n) => `0x${n.toString(16)}`),
    fc.constantFrom("1e3", "", " 5", "-1"),
  );
  const entry = fc.record({
    scheme: fc.constantFrom("exact", "upto"),
    network: fc.constantFrom("eip155:84532", "eip155:8453"),
    asset: hex(2).map((h) => `0x036cbd53842c5426634e7929541ec2318f3dcf${h}`),
    payTo: hex(2).map((h) => `0x209693Bc6afc0C5328bA36FaF03C514EF3122${h}`),
    amount,
    maxTimeoutSeconds: fc.constantFrom(60, 300),
    extra: fc.record({ name: fc.constantFrom("USDC", "USD Coin"), version: fc.constantFrom("1", "2") }),
  });

  it("never shares one digest between requirements that sign different values", async () => {
    await fc.assert(
      fc.asyncProperty(entry, entry, async (a, b) => {
        fc.pre(signedMeaning(a) !== signedMeaning(b));
        expect(await requirementDigest(read(a))).not.toBe(await requirementDigest(read(b)));
      }),
      { numRuns: 2000 },
    );
  });
});
