import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import type { LookupFunction } from "../../lib/ssrf-guard.js";
import { retryDelayMs } from "./backoff.js";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from "./constants.js";
import { deriveSigningKey, hashSecret, newWatchSecrets, secretMatches, signingKeyOf, signingSecretOf } from "./secrets.js";
import { checkWebhookTarget, webhookUrlProblem } from "./webhook-url.js";

const strict = { allowPrivate: false };
const demo = { allowPrivate: true };
const resolves =
  (...addresses: string[]): LookupFunction =>
  (_h, _o, cb) =>
    cb(
      null,
      addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
    );
const fails =
  (code: string): LookupFunction =>
  (_h, _o, cb) =>
    cb(Object.assign(new Error(code), { code }), []);

describe("webhookUrlProblem", () => {
  it.each(["https://93.184.216.34/h", "https://[2606:4700:4700::1111]/h", "https://hooks.example.com:8443/a?b=c"])("accepts %s", (u) => {
    expect(webhookUrlProblem(u, strict)).toBeUndefined();
  });
  it.each([
    "https://127.0.0.1/",
    "https://2130706433/",
    "https://0x7f000001/",
    "https://0x7f.1/",
    "https://0177.0.0.1/",
    "https://127.1/",
    "https://[::1]/",
    "https://[::ffff:127.0.0.1]/",
    "https://[::ffff:7f00:1]/",
    "https://10.0.0.1/",
    "https://169.254.169.254/",
    "https://2852039166/",
    "https://[fd00:ec2::254]/",
    "https://[fe80::1]/",
    "https://[fc00::1]/",
    "https://224.0.0.251/",
    "https://[ff02::1]/",
    "https://0.0.0.0/",
    "https://[::]/",
    "https://[2001:db8::1]/",
    "https://[64:ff9b:1::a00:1]/",
    "https://[2002:a00:1::1]/",
    "https://localhost/",
    "https://a.b.localhost/",
    "http://93.184.216.34/",
    "https://u@93.184.216.34/",
    "https://:p@93.184.216.34/",
    "ws://93.184.216.34/",
    "not a url",
  ])("refuses %s", (u) => {
    expect(webhookUrlProblem(u, strict)).toBeDefined();
  });
  it("lets http and loopback through for tests and demos, nothing else", () => {
    for (const u of ["http://127.0.0.1:9/", "http://[::1]:9/", "https://localhost/", "http://2130706433/"]) expect(webhookUrlProblem(u, demo)).toBeUndefined();
    for (const u of ["http://10.0.0.1/", "http://169.254.169.254/", "http://[fd00::1]/", "http://[::ffff:10.0.0.1]/", "http://u:p@127.0.0.1/"])
      expect(webhookUrlProblem(u, demo)).toBeDefined();
  });
});

describe("checkWebhookTarget", () => {
  const hook = "https://hooks.example.com/h";
  it("checks every address the name resolves to", async () => {
    expect(await checkWebhookTarget(hook, strict, resolves("93.184.216.34"))).toEqual({ ok: true });
    for (const lookup of [resolves("10.0.0.7"), resolves("93.184.216.34", "169.254.169.254"), resolves("::ffff:127.0.0.1"), resolves("fd00::5")]) {
      expect(await checkWebhookTarget(hook, strict, lookup)).toMatchObject({ ok: false, status: 400, message: expect.stringMatching(/resolves to a private/) });
    }
    expect(await checkWebhookTarget(hook, demo, resolves("127.0.0.1"))).toEqual({ ok: true });
    expect(await checkWebhookTarget(hook, demo, resolves("192.168.1.9"))).toMatchObject({ ok: false, status: 400 });
  });
  it("answers 400 for a name that does not exist and 503 for a resolver failure", async () => {
    expect(await checkWebhookTarget(hook, strict, fails("ENOTFOUND"))).toMatchObject({ ok: false, status: 400, message: "webhookUrl host does not resolve" });
    expect(await checkWebhookTarget(hook, strict, fails("EAI_AGAIN"))).toMatchObject({ ok: false, status: 503 });
  });
  it("resolves localhost with the system resolver in demo mode (loopback only)", async () => {
    expect(await checkWebhookTarget("http://localhost:9/h", demo)).toEqual({ ok: true });
  });
});

describe("secrets", () => {
  it("stores a digest, compares in constant time, and signs with the secret itself (docs/webhooks.md)", () => {
    const s = newWatchSecrets();
    expect(s.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(s.secretHash.equals(hashSecret(s.secret))).toBe(true);
    expect(secretMatches(s.secretHash, s.secret)).toBe(true);
    for (const wrong of [undefined, "", s.secret.toUpperCase(), s.secret.slice(1), `${s.secret}0`]) expect(secretMatches(s.secretHash, wrong)).toBe(false);
    expect(secretMatches(undefined, s.secret)).toBe(false);
    // The key is the secret string's bytes; the older derived key is another key.
    expect(signingKeyOf(s.secret).equals(Buffer.from(s.secret, "utf8"))).toBe(true);
    expect(signingKeyOf(s.secret).equals(deriveSigningKey(s.secret))).toBe(false);

    const body = JSON.stringify({ hello: "world" });
    const at = new Date();
    const signature = new Webhook(signingSecretOf(signingKeyOf(s.secret))).sign("msg_1", at, body);
    const ts = String(Math.floor(at.getTime() / 1000));
    const headers = { "webhook-id": "msg_1", "webhook-timestamp": ts, "webhook-signature": signature };
    expect(new Webhook(signingSecretOf(signingKeyOf(s.secret))).verify(body, headers)).toEqual({ hello: "world" });
    // A receiver written from the spec: HMAC-SHA256 keyed with the secret as given, over id.timestamp.body.
    expect(signature).toBe(`v1,${createHmac("sha256", s.secret).update(`msg_1.${ts}.${body}`).digest("base64")}`);
    expect(() => new Webhook(signingSecretOf(signingKeyOf(newWatchSecrets().secret))).verify(body, headers)).toThrow();
  });
});

describe("retry schedule", () => {
  it("waits 5 s, 30 s, 2 min, 10 min, 30 min (±25%) between at most six attempts", () => {
    expect(MAX_ATTEMPTS).toBe(6);
    expect(RETRY_DELAYS_MS.map((_, i) => retryDelayMs(i + 1, () => 0.5))).toEqual([5_000, 30_000, 120_000, 600_000, 1_800_000]);
    expect(retryDelayMs(1, () => 0)).toBe(3_750);
    expect(retryDelayMs(1, () => 1)).toBe(6_250);
    expect(retryDelayMs(9, () => 0.5)).toBe(1_800_000);
  });
});
