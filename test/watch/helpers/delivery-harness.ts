import { afterEach, beforeEach } from "vitest";
import { startAlerter, type Alerter } from "../../helpers/start-alerter.js";
import { createTestContext, type TestContext } from "../../helpers/context.js";
import { startReceiver, type Receiver } from "./receiver.js";

export interface DeliveryHarness {
  ctx: TestContext;
  /** The loopback webhook receiver. */
  rx: Receiver;
  /** The alerter started before each test. */
  alerter: Alerter;
  /** Alerters a test starts besides that one (stopped after the test). */
  extra: Alerter[];
  /** Another alerter on the same database, with retries exactly on the schedule. */
  start(owner?: string): Alerter;
}

/**
 * The setup of the webhook delivery tests: before each test a fresh context allowing private
 * webhook targets, a receiver and an alerter (ticking once a minute, so tests drive it with
 * runNow); after it, all of them stopped. Fields are replaced before every test.
 */
export function useDeliveryHarness(): DeliveryHarness {
  const h = { extra: [] as Alerter[] } as unknown as DeliveryHarness;
  // random() = 0.5 puts every retry exactly on the schedule.
  h.start = (owner?: string) => startAlerter(h.ctx, { tickMs: 60_000, random: () => 0.5, owner });
  beforeEach(async () => {
    h.ctx = await createTestContext({ ALLOW_PRIVATE_WEBHOOKS: "true" });
    h.rx = await startReceiver();
    h.alerter = h.start();
  });
  afterEach(async () => {
    for (const a of h.extra.splice(0)) await a.stop();
    await h.alerter.stop();
    await h.rx.close();
    await h.ctx.close();
  });
  return h;
}
