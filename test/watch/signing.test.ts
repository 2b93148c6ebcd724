import { createHmac, randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import { openSecret, sealSecret, SecretUnavailable } from "../../src/services/watch/sealed-secret.js";
import { deriveSigningKey, hashSecret, signingSecretOf } from "../../src/services/watch/secrets.js";
import { startAlerter, type Alerter } from "../helpers/start-alerter.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startReceiver, type Receiver } from "./helpers/receiver.js";
import { deliveriesOf, goDown, healthyListing } from "./helpers/watch-fixtures.js";

const KEY = randomBytes(32);
const ID = "3b0c5a8e-9f1d-4c2b-8a7e-5d6f4e3c2b1a";
const SECRET = "9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f1a3c5e7b9d0f";

describe("sealed secrets (decision 0025)", () => {
  it("open only with the key and the watch they were sealed for", () => {
    const sealed = sealSecret(KEY, ID, SECRET);
    expect(sealed.includes(Buffer.from(SECRET))).toBe(false);
    expect(openSecret(KEY, ID, sealed)).toBe(SECRET);
    expect(() => openSecret(KEY, ID.replace("3b", "4b"), sealed)).toThrow(SecretUnavailable);
    expect(() => openSecret(randomBytes(32), ID, sealed)).toThrow(SecretUnavailable);
    expect(() => openSecret(undefined, ID, sealed)).toThrow(/WATCH_SECRET_KEY, which is not set/);
    // Without a key the secret is kept as-is and opens without one.
    expect(openSecret(undefined, ID, sealSecret(undefined, ID, SECRET))).toBe(SECRET);
  });

  it("take WATCH_SECRET_KEY as 32 bytes in hex or base64, and refuse anything else without echoing it", () => {
    expect(loadConfig({ WATCH_SECRET_KEY: KEY.toString("hex") }).watchSecretKey!.equals(KEY)).toBe(true);
    expect(loadConfig({ WATCH_SECRET_KEY: KEY.toString("base64") }).watchSecretKey!.equals(KEY)).toBe(true);
    expect(loadConfig({}).watchSecretKey).toBeUndefined();
    const short = KEY.subarray(0, 16).toString("hex");
    expect(() => loadConfig({ WATCH_SECRET_KEY: short })).toThrow(ConfigError);
    expect(() => loadConfig({ WATCH_SECRET_KEY: short })).toThrow(/WATCH_SECRET_KEY/);
    expect(() => loadConfig({ WATCH_SECRET_KEY: short })).not.toThrow(new RegExp(short));
  });
});

/** What a receiver written from docs/webhooks.md does: HMAC-SHA256 keyed with the secret, over id.timestamp.body. */
const specVerifies = (secret: string, r: { id: string; timestamp: string; body: string }, signature: string): boolean =>
  signature === `v1,${createHmac("sha256", secret).update(`${r.id}.${r.timestamp}.${r.body}`).digest("base64")}`;

describe("alerts signed with the subscription secret", () => {
  let ctx: TestContext;
  let rx: Receiver;
  let alerter: Alerter;
  beforeEach(async () => {
    ctx = await createTestContext({ ALLOW_PRIVATE_WEBHOOKS: "true", WATCH_SECRET_KEY: KEY.toString("hex") });
    rx = await startReceiver();
    alerter = startAlerter(ctx, { tickMs: 60_000, random: () => 0.5 });
  });
  afterEach(async () => {
    await alerter.stop();
    await rx.close();
    await ctx.close();
  });

  it("verify with the secret (spec) and with signingSecret (standardwebhooks), and the secret is sealed at rest", async () => {
    const l = await healthyListing(ctx);
    rx.answer("/a", () => ({ status: 204 }));
    const w = await ctx.services.watch.create({ url: l.url, webhookUrl: `${rx.url}/a`, signals: ["dead"] });
    expect(w.signingSecret).toBe(`whsec_${Buffer.from(w.secret).toString("base64")}`);
    rx.trust("/a", w.signingSecret);
    const row = await ctx.db.db.selectFrom("watches").selectAll().where("id", "=", w.watchId).executeTakeFirstOrThrow();
    expect(row.secret_sealed!.includes(Buffer.from(w.secret))).toBe(false);
    expect(row.signing_key).toBeNull();
    expect(row.webhook_host).toBe("127.0.0.1");

    await alerter.runNow();
    await goDown(ctx, l.id);
    expect(await alerter.runNow()).toMatchObject({ delivered: 1 });
    const got = rx.on("/a")[0]!;
    expect(got.verified).toBe(true);
    expect(specVerifies(w.secret, got, got.signature)).toBe(true);
    expect(specVerifies(w.secret.toUpperCase(), got, got.signature)).toBe(false);
  });

  it("keeps signing a watch made before with the derived key its receiver was given", async () => {
    const l = await healthyListing(ctx);
    const secret = randomBytes(32).toString("hex");
    const legacy = deriveSigningKey(secret);
    const { id } = await ctx.db.db
      .insertInto("watches")
      .values({
        url: l.url,
        url_normalized: l.url,
        webhook_url: `${rx.url}/old`,
        webhook_host: "127.0.0.1",
        signals: ["dead"],
        secret_hash: hashSecret(secret),
        signing_key: legacy,
        expires_at: new Date(ctx.clock.now().getTime() + 86_400_000),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    rx.trust("/old", signingSecretOf(legacy));
    await alerter.runNow();
    await goDown(ctx, l.id);
    await alerter.runNow();
    expect(rx.on("/old")[0]).toMatchObject({ verified: true, payload: { watchId: id, state: "fired" } });
    expect((await deliveriesOf(ctx, id))[0]).toMatchObject({ status: "delivered" });
  });
});
