import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { encodePaymentRequiredHeader } from "@x402/core/http";
import { expect, it } from "vitest";
import { startAlerter } from "../helpers/start-alerter.js";
import { startProber } from "../helpers/start-prober.js";
import { seedListing } from "../helpers/catalog-fixtures.js";
import { createTestContext } from "../helpers/context.js";
import { startReceiver } from "./helpers/receiver.js";
import { MINUTE, watchOn } from "./helpers/watch-fixtures.js";

const CHALLENGE = encodePaymentRequiredHeader({
  x402Version: 2,
  error: "Payment required",
  resource: { url: "http://tickerwire.test/prices/funding-rates", description: "funding rates", mimeType: "application/json" },
  accepts: [
    {
      scheme: "exact",
      network: "eip155:84532",
      amount: "1000",
      asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      payTo: `0x${"1".repeat(40)}`,
      maxTimeoutSeconds: 300,
      extra: {},
    },
  ],
});

it("a flapping x402 endpoint, probed by the real prober, gives signed fired and cleared alerts", async () => {
  const ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true", ALLOW_PRIVATE_WEBHOOKS: "true" });
  ctx.clock.set(new Date());
  // Like the demo's flapping merchant: 40 minutes up, 40 minutes down, by the (manual) clock.
  const down = () => Math.floor(ctx.clock.now().getTime() / (40 * MINUTE)) % 2 === 1;
  const merchant = createServer((req, res) => {
    req.resume();
    if (!req.url?.startsWith("/prices/")) return void res.writeHead(404).end();
    if (down()) return void res.writeHead(503, { "content-type": "application/json" }).end("{}");
    res.writeHead(402, { "content-type": "application/json", "payment-required": CHALLENGE }).end("{}");
  });
  await new Promise<void>((resolve) => merchant.listen(0, "127.0.0.1", resolve));
  const rx = await startReceiver();
  const prober = startProber(ctx, { tickMs: 3_600_000, runAtStart: false, intervalSeconds: 300 });
  const alerter = startAlerter(ctx, { tickMs: 3_600_000 });
  try {
    const url = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}/prices/funding-rates`;
    await seedListing(ctx, { url, method: "GET", service: "Tickerwire" });
    await ctx.db.db.updateTable("listings").set({ next_probe_at: ctx.clock.now() }).execute();
    await watchOn(ctx, rx, "/flap", url, { signals: ["dead"] });

    // Three hours of probe cycles, two minutes apart; the alerter runs after each cycle.
    for (let step = 0; step < 90; step++) {
      await prober.runNow();
      await alerter.runNow();
      ctx.clock.advance(2 * MINUTE);
    }
    const got = rx.on("/flap");
    expect(got.length).toBeGreaterThanOrEqual(4);
    expect(got.every((r) => r.verified)).toBe(true);
    expect(got.map((r) => r.payload.state)).toEqual(got.map((_, i) => (i % 2 === 0 ? "fired" : "cleared")));
    expect(new Set(got.map((r) => r.id)).size).toBe(got.length);
    expect(got[0]!.payload.evidence).toMatchObject({ fail_streak: 3, min_failed_in_a_row: 3 });
  } finally {
    await prober.stop();
    await alerter.stop();
    await rx.close();
    await new Promise<void>((resolve) => merchant.close(() => resolve()));
    await ctx.close();
  }
});
