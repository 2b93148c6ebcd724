import pg from "pg";
import { describe, expect, it } from "vitest";
import { postgresNotifications, type ChannelListener } from "../../src/db/notifications.js";
import { testDatabaseUrl } from "../helpers/db.js";

const CHANNEL = "lookout_test_feed";

/** A listener that records what it hears, under a name. */
const recorder = (name: string, heard: string[]): ChannelListener => ({
  message: (payload) => void heard.push(`${name} ${payload}`),
  lost: () => void heard.push(`${name} lost`),
  ready: () => void heard.push(`${name} ready`),
});

describe.runIf(testDatabaseUrl)("PostgreSQL notifications", () => {
  const open = (connectionString: string, errors: Error[] = []) =>
    postgresNotifications({ connectionString, types: pg.types, channels: [CHANNEL], onError: (err) => void errors.push(err) });

  it("a listen made while another's connection attempt is in flight resolves once it is heard, not before", async () => {
    const feed = open(testDatabaseUrl!);
    const heard: string[] = [];
    try {
      const first = feed.listen(CHANNEL, recorder("a", heard));
      const second = feed.listen(CHANNEL, recorder("b", heard));
      await second;
      expect(heard).toContain("b ready");
      await first;
      expect(heard).toContain("a ready");
      const sender = new pg.Client({ connectionString: testDatabaseUrl });
      await sender.connect();
      await sender.query(`notify ${CHANNEL}, '7,8'`);
      await sender.end();
      await expect.poll(() => heard.filter((h) => h.endsWith("7,8")).sort(), { timeout: 5_000, interval: 20 }).toEqual(["a 7,8", "b 7,8"]);
    } finally {
      await feed.close();
    }
  });

  it("both listens fail when the first attempt fails; the retries go on behind them", async () => {
    // A port nothing listens on: the connection is refused at once.
    const refused = new URL(testDatabaseUrl!);
    refused.port = "1";
    const errors: Error[] = [];
    const feed = open(refused.toString(), errors);
    try {
      const results = await Promise.allSettled([feed.listen(CHANNEL, recorder("a", [])), feed.listen(CHANNEL, recorder("b", []))]);
      expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
      await expect.poll(() => errors.length, { timeout: 5_000, interval: 20 }).toBeGreaterThanOrEqual(1);
    } finally {
      await feed.close();
    }
  });
});
