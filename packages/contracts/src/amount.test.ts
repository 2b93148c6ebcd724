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
const vectors = JSON.parse(readFileSync(new URL("../../../test/fixtures/requirement-vectors.json", import.meta.url), "utf8")) as Vector[];
const docs = readFileSync(new URL("../../../docs/verdicts.md", import.meta.url), "utf8");
const RESOURCE = { url: "https://api.example/weather" };
const read = (entry: Record<string, unknown>, x402Version = 2) => readChallengeObject({ x402Version, resource: RESOURCE, accepts: [entry] })!.accepts[0]!;

describe("the one amount reader", () => {
  it("accepts only canonical decimal integers within uint256", () => {
    for (const ok of ["0", "1", "1000", (2n ** 256n - 1n).toString()]) expect(readAmount(ok), ok).toMatchObject({ ok: true, text: ok });
    const bad: Array<[unknown, string]> = [
      [undefined, "missing"],
      [null, "missing"],
      ["", "not_canonical"],
      ["007", "not_canonical"],
      ["0x10", "not_canonical"],
      ["+1", "not_canonical"],
      [" 1", "not_canonical"],
      ["1 ", "not_canonical"],
      ["1e3", "unsignable"],
      ["-1", "unsignable"],
      ["1.0", "unsignable"],
      [1.5, "unsignable"],
      [1000, "not_a_string"],
      [(2n ** 256n).toString(), "beyond_uint256"],
      [`0x1${"0".repeat(64)}`, "unsignable"],
    ];
    for (const [value, problem] of bad) expect(readAmount(value), String(value)).toMatchObject({ ok: false, problem });
  });

  it('prices a malformed amount at what BigInt makes of it, as the client signs it (true is 1, ["5"] is 5, "" is 0)', () => {
    for (const [value, signed] of [
      [true, 1n],
      [["5"], 5n],
      [" 7 ", 7n],
      ["", 0n],
      ["0x10", 16n],
      [1.5, null],
      [{}, null],
      ["-1", null],
    ] as Array<[unknown, bigint | null]>)
      expect(readAmount(value), JSON.stringify(value)).toMatchObject({ ok: false, signed });
  });

  it("marks a maxTimeoutSeconds that is not an integer: the client adds it to its clock as written", () => {
    // The exact client signs validBefore = now + maxTimeoutSeconds: "60" makes 170000000060, millennia away.
    const text = read({ scheme: "exact", network: "eip155:84532", amount: "1000", maxTimeoutSeconds: "60" });
    expect(text).toMatchObject({ amount: "1000", maxTimeoutSeconds: null, maxTimeoutText: '"60"', malformed: "max_timeout_not_an_integer" });
    expect(read({ scheme: "exact", network: "eip155:84532", amount: "1000", maxTimeoutSeconds: 60.5 })).toMatchObject({
      malformed: "max_timeout_not_an_integer",
    });
    // The amount's mark comes first; an absent timeout is no mark (the client cannot sign it at all).
    expect(read({ scheme: "exact", network: "eip155:84532", amount: "01", maxTimeoutSeconds: "60" })).toMatchObject({ malformed: "amount_not_canonical" });
    expect(read({ scheme: "exact", network: "eip155:84532", amount: "1000" })).toMatchObject({ maxTimeoutSeconds: null, malformed: null });
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
      expect(docs, v.name).toContain(v.canonical);
    }
  });
});

// What an x402 exact client signs for an entry (@x402/evm exact/client): each field that changes
// the signature, computed as the client computes it, at one fixed clock.
const NOW = 1_700_000_000;
function signedMeaning(e: Entry) {
  const big = (v: unknown) => {
    try {
      const n = BigInt(v as string);
      return n >= 0n && n < 2n ** 256n ? n.toString() : "unsignable";
    } catch {
      return "unsignable";
    }
  };
  const validBefore = big((NOW + (e.maxTimeoutSeconds as number)).toString());
  return JSON.stringify([e.scheme, e.network, e.asset.toLowerCase(), e.payTo.toLowerCase(), big(e.amount), validBefore, canonicalJson(e.extra)]);
}

const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-fA-F]{${n}}$`));
const fields = {
  scheme: fc.constantFrom("exact", "upto"),
  network: fc.constantFrom("eip155:84532", "eip155:8453"),
  asset: hex(2).map((h) => `0x036cbd53842c5426634e7929541ec2318f3dcf${h}`),
  payTo: hex(2).map((h) => `0x209693Bc6afc0C5328bA36FaF03C514EF3122${h}`),
  amount: fc.oneof(
    fc.bigInt({ min: 0n, max: 10n ** 12n }).map(String),
    fc.tuple(fc.integer({ min: 1, max: 4 }), fc.bigInt({ min: 0n, max: 10n ** 6n })).map(([zeros, n]) => "0".repeat(zeros) + String(n)),
    fc.bigInt({ min: 0n, max: 10n ** 6n }).map((n) => `0x${n.toString(16)}`),
    fc.bigInt({ min: 0n, max: 10n ** 6n }).map(Number),
    fc.constantFrom<unknown>("1e3", "", " 5", "-1", true, ["5"], 1.5),
  ),
  maxTimeoutSeconds: fc.constantFrom<unknown>(60, 300, 600, "60", "300", 60.5),
  extra: fc.record({ name: fc.constantFrom("USDC", "USD Coin"), version: fc.constantFrom("1", "2") }),
};
type Entry = { scheme: string; network: string; asset: string; payTo: string; amount: unknown; maxTimeoutSeconds: unknown; extra: object };
const entry: fc.Arbitrary<Entry> = fc.record(fields);
const digestOf = (e: Entry) => requirementDigest(read(e as unknown as Record<string, unknown>));

describe("the requirement digest", () => {
  it("never shares one digest between requirements that sign different values", async () => {
    await fc.assert(
      fc.asyncProperty(entry, entry, async (a, b) => {
        fc.pre(signedMeaning(a) !== signedMeaning(b));
        expect(await digestOf(a)).not.toBe(await digestOf(b));
      }),
      { numRuns: 1000 },
    );
  });

  it("changes with each field that changes what is signed, one field at a time", async () => {
    const oneChanged = entry.chain((a) =>
      fc.constantFrom(...(Object.keys(fields) as Array<keyof typeof fields>)).chain((k) => fields[k].map((v) => [a, { ...a, [k]: v } as Entry, k] as const)),
    );
    const changed = new Set<string>();
    await fc.assert(
      fc.asyncProperty(oneChanged, async ([a, b, k]) => {
        fc.pre(signedMeaning(a) !== signedMeaning(b));
        changed.add(k);
        expect(await digestOf(a), k).not.toBe(await digestOf(b));
      }),
      { numRuns: 2000 },
    );
    expect([...changed].sort()).toEqual(Object.keys(fields).sort());
  });
});
