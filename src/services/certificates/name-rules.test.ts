import { recoverMessageAddress } from "viem";
import { describe, expect, it } from "vitest";
import { CERTIFICATE_EXAMPLE, CERTIFICATE_REQUEST_EXAMPLE, EXAMPLE_ISSUER } from "@x402-lookout/contracts/verified/create-certificate";
import { certificateProofMessage } from "@x402-lookout/contracts/verified/proof";
import { imitation, nameSkeleton } from "./name-rules.js";

describe("name skeletons", () => {
  it.each([
    ["Coinbase", "coinbase"],
    ["C0INBASE", "coinbase"],
    ["coin-base", "coinbase"],
    ["Сoinbasе", "coinbase"], // Cyrillic С and е
    ["Ｃｏｉｎｂａｓｅ", "coinbase"], // fullwidth
    ["Cöinbase", "coinbase"],
    ["Co1nba$e", "coinbase"],
  ])("%s reads %s", (name, skeleton) => {
    // l and 1 fold to i, so compare skeletons rather than spell them out.
    expect(nameSkeleton(name)).toBe(nameSkeleton(skeleton));
  });
});

describe("imitation", () => {
  it.each([
    ["Coinbase", "Coinbase", "same_name"],
    ["Сoinbase", "coinbase", "same_name"],
    ["Skycast Weather Pro", "Skycast Weather", "contains"],
    ["Official Skycast-Weather", "skycast weather", "contains"],
    ["Skycast", "Skycast Weather", "contained_in"],
    ["Coinbase Official x402 Gateway", "Coinbase Developer Platform", "brand"],
    ["CoinbasePay Gateway", "Coinbase Developer Platform", "brand"],
    ["Visa Checkout", "Visa Direct", "brand"],
  ] as const)("%s imitates %s (%s)", (name, other, rule) => {
    expect(imitation(name, other)).toBe(rule);
  });

  it.each([
    ["Skycast Weather", "Atlas Geocoding"],
    // A one-word service name is not reserved inside longer names...
    ["Skycast Weather", "Weather"],
    // ...and names shorter than 6 letters only match exactly.
    ["Atlas", "Atlas Geocoding"],
    ["Pulse", "Oracle Pulse"],
    // A short brand matches only as a whole word.
    ["Advisable Data", "Visa Direct"],
    ["Coinbase Official", "Skycast Weather"],
    ["!!!", "???"],
  ])("%s does not imitate %s", (name, other) => {
    expect(imitation(name, other)).toBeNull();
  });
});

describe("the documented proof example", () => {
  it("is the example payTo's real signature of the example request's message", async () => {
    const { url, name, proof } = CERTIFICATE_REQUEST_EXAMPLE;
    const message = certificateProofMessage({ issuer: EXAMPLE_ISSUER, url, name, issuedAt: proof.issuedAt });
    expect(message).toBe(
      'x402 Lookout certificate request\nissuer: "https://lookout.example"\nurl: "https://weather.example/*"\nname: "Skycast Weather"\nissuedAt: "2026-11-20T11:58:30.000Z"',
    );
    expect(await recoverMessageAddress({ message, signature: proof.signature as `0x${string}` })).toBe(CERTIFICATE_EXAMPLE.payTo);
  });
});
