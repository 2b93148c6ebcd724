import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, SignJWT, type JSONWebKeySet } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runKeysCommand } from "../../src/cli/commands/keys.js";
import { createApp, type App } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { SigningKeyUnavailable } from "../../src/services/index.js";
import { openPrivate } from "../../src/services/certificates/key-sealing.js";
import { createCertificatesService } from "../../src/services/certificates/service.js";
import { activeSigningKey } from "../../src/services/certificates/signing-keys.js";
import { HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { KEY_REFRESH_MS } from "../../src/services/verdict-signing/index.js";

import { testIo } from "../cli/helpers.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { body } from "../helpers/http.js";

const SEAL = "5e".repeat(32);
const URL_ = "https://weather.example/v1/forecast";
let ctx: TestContext;
let app: App;
let ip = 0;

const jwks = async (): Promise<string[]> => ((await body(await app.request("/.well-known/jwks.json"))) as JSONWebKeySet).keys.map((k) => k.kid!);
/** A signed verdict from the free trial route, each from its own client network (5 trial calls a network a day). */
const verdict = async (): Promise<string> => {
  const res = await app.request("/api/v1/preflight-trial", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": `198.51.${++ip}.7` },
    body: JSON.stringify({ url: URL_ }),
  });
  return (await body(res)).signature;
};
const keys = async (...argv: string[]) => {
  const io = testIo(ctx.db, ctx.clock);
  const code = await runKeysCommand(argv, io, ctx.config);
  return { code, out: io.stdout.text, err: io.stderr.text };
};
/** The paid preflight's verdict (never cached, unlike the trial's) as this process signs it now. */
const paid = async () => decodeProtectedHeader((await ctx.services.reports.preflight(URL_)).signature).kid;
const privateRow = async (kid: string) =>
  JSON.stringify((await ctx.db.db.selectFrom("signing_keys").select("private_jwk").where("kid", "=", kid).executeTakeFirstOrThrow()).private_jwk);

beforeAll(async () => {
  ctx = await createTestContext({ TRUST_PROXY: "true", SIGNING_SECRET_KEY: SEAL });
  app = createApp({ ctx, routes: productRoutes });
  const id = await seedListing(ctx, { url: URL_, service: "Skycast", provider: "0xaaa", payTo: "0x00000000000000000000000000000000000000aa", price: "0.002" });
  await seedProbes(
    ctx,
    id,
    series(HOUR, 10 * MINUTE, () => ({ latency: 120, price: "0.002" })),
  );
  await recompute(ctx);
}, 60_000);
afterAll(async () => ctx?.close());

describe("the signing key at rest (decision 0031)", () => {
  it("is stored sealed, not readable in the row, and still signs verdicts that verify against the served JWKS", async () => {
    const { kid, clear } = await ctx.services.certificates.keys.prepare();
    expect(clear).toBe(false);
    const stored = await privateRow(kid);
    const { d } = openPrivate(JSON.parse(stored), kid, Buffer.from(SEAL, "hex"));
    expect(d).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(stored).toMatch(/^\{"sealed":"[A-Za-z0-9+/=]+"\}$/);
    expect(stored).not.toContain(d!);
    const sig = await verdict();
    expect(decodeProtectedHeader(sig).kid).toBe(kid);
    await jwtVerify(sig, createLocalJWKSet((await body(await app.request("/.well-known/jwks.json"))) as JSONWebKeySet), { currentDate: ctx.clock.now() });
  });

  it("does not open without its sealing key or under another one: the start stops with one line", async () => {
    const bare = createCertificatesService({ db: ctx.db, clock: ctx.clock, publicBaseUrl: "http://x.test" });
    await expect(bare.keys.prepare()).rejects.toThrow(SigningKeyUnavailable);
    await expect(bare.keys.prepare()).rejects.toThrow(/is sealed and SIGNING_SECRET_KEY is not set$/);
    const other = createCertificatesService({ db: ctx.db, clock: ctx.clock, publicBaseUrl: "http://x.test", sealKey: Buffer.alloc(32, 1) });
    await expect(other.keys.prepare()).rejects.toThrow(/SIGNING_SECRET_KEY is not the key it was sealed with$/);
  });

  it("seals a key kept in clear on the first start with a sealing key, once, beside another process doing the same", async () => {
    // Another database: a key made by a service without SIGNING_SECRET_KEY (the default start).
    const plain = await createTestContext({});
    try {
      const before = await plain.services.certificates.keys.prepare();
      expect(before.clear).toBe(true);
      const at = (svc: ReturnType<typeof createCertificatesService>) => svc.keys.prepare();
      const sealKey = Buffer.from(SEAL, "hex");
      const runs = await Promise.all(
        [1, 2].map(() => at(createCertificatesService({ db: plain.db, clock: plain.clock, publicBaseUrl: "http://x.test", sealKey }))),
      );
      expect(runs.map((r) => r.kid)).toEqual([before.kid, before.kid]);
      expect(runs.every((r) => !r.clear)).toBe(true);
      expect(runs[0]!.sealedNow + runs[1]!.sealedNow).toBeGreaterThanOrEqual(1);
      const again = await at(createCertificatesService({ db: plain.db, clock: plain.clock, publicBaseUrl: "http://x.test", sealKey }));
      expect(again).toEqual({ kid: before.kid, sealedNow: 0, clear: false });
      const row = await plain.db.db.selectFrom("signing_keys").select("private_jwk").executeTakeFirstOrThrow();
      expect(JSON.stringify(row.private_jwk)).not.toContain('"d"');
      // A lost sealing key: `keys rotate` under a new one needs not open the old key, and the start works again.
      const fresh = createCertificatesService({ db: plain.db, clock: plain.clock, publicBaseUrl: "http://x.test", sealKey: Buffer.alloc(32, 9) });
      await expect(fresh.keys.prepare()).rejects.toThrow(SigningKeyUnavailable);
      const rotated = await fresh.keys.rotate();
      expect(rotated.retired).toBe(before.kid);
      expect(await fresh.keys.prepare()).toEqual({ kid: rotated.kid, sealedNow: 0, clear: false });
    } finally {
      await plain.close();
    }
  });
});

describe("npm run lookout -- keys rotate / revoke", () => {
  it("rotates: the old kid stays published, verdicts signed after the refresh carry the new kid", async () => {
    const old = decodeProtectedHeader(await verdict()).kid!;
    const r = await keys("rotate");
    expect(r.code, r.err).toBe(0);
    const kid = /^active key (\S+); retired (\S+)/.exec(r.out)!;
    expect(kid[2]).toBe(old);
    expect(await jwks()).toEqual([old, kid[1]]);
    expect(await privateRow(kid[1]!)).toMatch(/^\{"sealed":/);
    // A running process reads the key again after KEY_REFRESH_MS, in the background: the call that notices still signs with the old one.
    ctx.clock.advance(KEY_REFRESH_MS);
    expect(await paid()).toBe(old);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await paid()).toBe(kid[1]);
    const listed = (await keys("list")).out;
    expect(listed).toMatch(new RegExp(`^${old}  retired \\(in the JWKS until at least \\S+\\)  sealed`, "m"));
    expect(listed).toMatch(new RegExp(`^${kid[1]}  active  sealed`, "m"));
  });

  it("revokes: the kid leaves the JWKS at once, valid certificates it signed are signed again, an unknown kid is one line and exit 1", async () => {
    const [retired, active] = await jwks();
    // A valid and an expired certificate signed by the active key, as issueCertificate stores them.
    const key = await activeSigningKey(ctx.db.db, Buffer.from(SEAL, "hex"));
    const now = ctx.clock.now();
    const cert = async (id: string, until: Date) => {
      const jws = await new SignJWT({ certId: id, url: "https://wx.example/*" })
        .setProtectedHeader({ alg: "EdDSA", kid: key.kid, typ: "JWT" })
        .setExpirationTime(Math.floor(until.getTime() / 1000))
        .sign(key.privateKey);
      await ctx.db.db
        .insertInto("certificates")
        .values({
          cert_id: id,
          url_pattern: "https://wx.example/*",
          name: "Skycast",
          tier: "verified",
          verified: true,
          jws,
          kid: key.kid,
          issued_at: now,
          valid_until: until,
        })
        .execute();
    };
    await cert("valid", new Date(now.getTime() + 30 * 24 * HOUR));
    await cert("expired", new Date(now.getTime() - HOUR));

    const unknown = await keys("revoke", "no-such-kid");
    expect(unknown).toEqual({ code: 1, out: "", err: "lookout: no signing key has kid no-such-kid (npm run lookout -- keys list shows them)\n" });
    expect((await keys("revoke")).code).toBe(2);

    const r = await keys("revoke", active!);
    expect(r.code, r.err).toBe(0);
    const next = /active key (\S+); 1 valid certificate/.exec(r.out)![1]!;
    expect(next).not.toBe(active);
    expect(await jwks()).toEqual([retired, next]);
    expect(await privateRow(active!)).toMatch(/^\{"revoked_at":"[^"]+"\}$/);
    const rows = await ctx.db.db.selectFrom("certificates").select(["cert_id", "jws", "kid"]).orderBy("cert_id").execute();
    expect(rows.map((c) => [c.cert_id, c.kid])).toEqual([
      ["expired", active],
      ["valid", next],
    ]);
    const set = createLocalJWKSet((await body(await app.request("/.well-known/jwks.json"))) as JSONWebKeySet);
    const { payload } = await jwtVerify(rows[1]!.jws!, set, { currentDate: now });
    expect(payload.certId).toBe("valid");

    // The retired key too: out at once, though still inside its grace.
    expect((await keys("revoke", retired!)).code).toBe(0);
    expect(await jwks()).toEqual([next]);
    expect((await keys("revoke", retired!)).out).toBe(`key ${retired} was already revoked; active key ${next}\n`);
    // No process signs with a revoked key once it reads the key again.
    ctx.clock.advance(KEY_REFRESH_MS);
    expect(await paid()).toBe(active);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await paid()).toBe(next);
    // The trial cache held answers signed by the revoked key: gone with the revocation.
    expect(decodeProtectedHeader(await verdict()).kid).toBe(next);
    expect((await keys("list")).out).toMatch(new RegExp(`^${active}  revoked  erased`, "m"));
  });
});
