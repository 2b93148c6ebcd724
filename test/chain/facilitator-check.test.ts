import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Devnet } from "../../src/chain/devnet.js";
import { createLocalFacilitator, createRemoteFacilitator } from "../../src/chain/facilitator.js";
import { checkFacilitatorSupport, FacilitatorMismatchError } from "../../src/chain/facilitator-check.js";
import { startPaymentRail } from "../../src/chain/payment-rail.js";
import { loadConfig } from "../../src/config.js";
import { freePort } from "../helpers/free-port.js";
import { startFakeSupported } from "../helpers/fake-supported.js";
import { startHttpFacilitator } from "../helpers/http-facilitator.js";
import { startTestDevnet } from "./helpers.js";

/** Issue 21 item 3: a remote facilitator's /supported is checked once at start-up. */
let devnet: Devnet;
let remote: Awaited<ReturnType<typeof startHttpFacilitator>>;
beforeAll(async () => {
  devnet = await startTestDevnet();
  remote = await startHttpFacilitator(createLocalFacilitator(devnet));
});
afterAll(async () => {
  await remote?.close();
  await devnet?.stop();
});

function captured() {
  const lines: Array<{ level: number; msg: string }> = [];
  return { lines, log: pino({ level: "info" }, { write: (s: string) => void lines.push(JSON.parse(s)) }) };
}
const railFor = (url: string, log: ReturnType<typeof captured>["log"]) =>
  startPaymentRail(loadConfig({ FACILITATOR_URL: url, PAY_TO: devnet.payTo, NETWORK: "eip155:84532" }), log);

describe("facilitator /supported at start-up", () => {
  it("starts quietly when the facilitator settles x402 v2 exact on the configured network", async () => {
    const { lines, log } = captured();
    const rail = await railFor(remote.url, log);
    expect(rail.network).toBe("eip155:84532");
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
  });

  it("refuses to start, in one line naming both sides, when the facilitator lacks the network", async () => {
    const fake = await startFakeSupported([
      { x402Version: 2, scheme: "exact", network: "eip155:8453" },
      { x402Version: 1, scheme: "exact", network: "base-sepolia" as never },
    ]);
    try {
      const { lines, log } = captured();
      const start = railFor(fake.url, log);
      await expect(start).rejects.toThrow(FacilitatorMismatchError);
      await expect(start).rejects.toThrow(
        `facilitator ${fake.url} supports x402 v2 exact on eip155:8453, x402 v1 exact on base-sepolia; configured: x402 v2 exact on eip155:84532 (NETWORK=eip155:84532), which it cannot settle`,
      );
      expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it("stops start-up with one line when the facilitator cannot be reached", async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    await expect(railFor(url, captured().log)).rejects.toThrow(
      /^facilitator http:\/\/127\.0\.0\.1:\d+ did not answer \/supported \(.+\); payments need x402 v2 exact on eip155:84532, so the service cannot start until it answers$/,
    );
  });

  it("gives up on a facilitator that does not answer within the time-out", async () => {
    const fake = await startFakeSupported([], { hang: true });
    try {
      const started = Date.now();
      await expect(checkFacilitatorSupport(createRemoteFacilitator(fake.url), { url: fake.url, network: "eip155:84532", timeoutMs: 300 })).rejects.toThrow(
        "(no answer within 300 ms)",
      );
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await fake.close();
    }
  });
});
