import { createHash } from "node:crypto";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SNAPSHOT_JWS } from "@x402-lookout/contracts/snapshot/limits";
import { VerdictDeltasSchema, VerdictSnapshotSchema, type VerdictDeltas, type VerdictSnapshot } from "@x402-lookout/contracts/snapshot/schemas";
import { applyRetention } from "../../src/db/retention.js";
import { createVerdictFeedService, TAKE_A_SNAPSHOT } from "../../src/services/verdict-feed/service.js";
import { createJwsSigner } from "../../src/services/verdict-signing/index.js";
import { HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { body, refusedInput } from "../helpers/http.js";
import { seedSkycastCatalog, SKYCAST } from "../helpers/skycast-catalog.js";
import { postJson, startLookout, type LookoutService } from "../discovery/lookout-service.js";

let svc: LookoutService;
let jwks: ReturnType<typeof createLocalJWKSet>;
const seen: number[] = [];
const PAY_TO = "0x000000000000000000000000000000000000dEaD";
const paid = async (path: string, payload: unknown) => {
  const res = await svc.payingFetch(0, { spendCapUsd: "$1" })(`${svc.url}${path}`, postJson(payload));
  expect(res.status, path).toBe(200);
  return body(res);
};
const snapshot = async (): Promise<VerdictSnapshot> => record(VerdictSnapshotSchema.parse(await paid("/api/v1/verdict-snapshot", {})));
const deltas = async (since: number): Promise<VerdictDeltas> => record(VerdictDeltasSchema.parse(await paid("/api/v1/verdict-deltas", { since })));
const preflight = async (url: string) => paid("/api/v1/preflight", { url });
const record = <T extends { seq: number }>(a: T) => (seen.push(a.seq), a);
const digest = (covered: unknown[]) => createHash("sha256").update(JSON.stringify(covered)).digest("base64url");
const listingId = async (url: string) => Number((await svc.ctx.db.db.selectFrom("listings").select("id").where("url", "=", url).executeTakeFirstOrThrow()).id);

beforeAll(async () => {
  svc = await startLookout();
  await seedSkycastCatalog(svc.ctx, PAY_TO);
  jwks = createLocalJWKSet((await body(await fetch(`${svc.url}/.well-known/jwks.json`))) as JSONWebKeySet);
});
afterAll(() => svc?.close());

describe("the verdict feed", () => {
  let first: VerdictSnapshot;

  it("sells a signed snapshot of every active listing with the verdict preflight gives", async () => {
    const before = await svc.balanceOf(svc.payer(0));
    first = await snapshot();
    expect(before - (await svc.balanceOf(svc.payer(0)))).toBe(250_000n);
    expect(first.entries.map((e) => e.url).sort()).toEqual([SKYCAST.forecast, SKYCAST.hourly, SKYCAST.broken].sort());
    for (const e of first.entries) {
      const report = await preflight(e.url);
      expect([e.ok, e.action, e.warnings, e.reason_codes], e.url).toEqual([report.ok, report.recommended_action, report.warnings, report.reason_codes]);
      expect(e).toMatchObject({ pay_to: PAY_TO, network: "eip155:84532", amount: "2000", price_usdc: "0.002" });
      expect(e.seq).toBeLessThanOrEqual(first.seq);
    }
    expect(first.entries.find((e) => e.url === SKYCAST.broken)).toMatchObject({ ok: false });
    const { payload, protectedHeader } = await jwtVerify(first.signature, jwks, { typ: SNAPSHOT_JWS.typ, algorithms: [SNAPSHOT_JWS.alg] });
    expect(protectedHeader.kid).toBeTruthy();
    expect(payload).toEqual({
      iss: svc.url,
      kind: "snapshot",
      since: null,
      seq: first.seq,
      count: 3,
      entries_digest: digest([first.entries]),
      generated_at: first.generated_at,
      exp: Math.floor(Date.parse(first.generated_at) / 1000) + 900,
    });
    expect(Date.parse(first.expires_at) - Date.parse(first.generated_at)).toBe(900_000);
  });

  it("numbers a changed verdict above the snapshot and sells it in the deltas", async () => {
    expect((await deltas(first.seq)).changed).toEqual([]);
    svc.ctx.clock.set(new Date());
    await seedProbes(
      svc.ctx,
      await listingId(SKYCAST.forecast),
      series(30 * MINUTE, 5 * MINUTE, () => ({ healthy: false, status: 500 })),
    );
    await recompute(svc.ctx);
    const d = await deltas(first.seq);
    expect(d.changed.map((e) => e.url)).toEqual([SKYCAST.forecast]);
    const [changed] = d.changed;
    const report = await preflight(SKYCAST.forecast);
    expect([changed!.ok, changed!.action, changed!.warnings, changed!.reason_codes]).toEqual([
      report.ok,
      report.recommended_action,
      report.warnings,
      report.reason_codes,
    ]);
    expect(changed!.reason_codes).not.toEqual(first.entries.find((e) => e.url === SKYCAST.forecast)!.reason_codes);
    expect(changed!.seq).toBeGreaterThan(first.seq);
    expect(d).toMatchObject({ since: first.seq, seq: changed!.seq, truncated: false, removed: [] });
    const { payload } = await jwtVerify(d.signature, jwks, { typ: SNAPSHOT_JWS.typ });
    expect(payload).toMatchObject({ kind: "deltas", since: first.seq, seq: d.seq, count: 1, entries_digest: digest([d.changed, d.removed]) });
    expect((await deltas(d.seq)).changed).toEqual([]);
  });

  it("sells a listing that left the catalog as removed, and no longer lists it", async () => {
    const at = (await snapshot()).seq;
    svc.ctx.clock.set(new Date());
    await svc.ctx.db.db.updateTable("listings").set({ is_active: false, deactivated_at: svc.ctx.clock.now() }).where("url", "=", SKYCAST.hourly).execute();
    const d = await deltas(at);
    expect(d.changed).toEqual([]);
    expect(d.removed).toEqual([{ url: SKYCAST.hourly, method: "POST", seq: d.seq }]);
    expect(d.seq).toBeGreaterThan(at);
    const later = await snapshot();
    expect(later.entries.map((e) => e.url).sort()).toEqual([SKYCAST.forecast, SKYCAST.broken].sort());
    expect(later.seq).toBe(d.seq);
  });

  it("pages through truncated deltas in sequence order", async () => {
    const { ctx } = svc;
    const paging = createVerdictFeedService({
      db: ctx.db,
      clock: ctx.clock,
      sign: createJwsSigner(ctx.db.db, ctx.clock, SNAPSHOT_JWS.typ),
      issuer: svc.url,
      maxEntries: 1,
    });
    const whole = await ctx.services.verdictFeed.deltas(0);
    const pages: VerdictDeltas[] = [await paging.deltas(0)];
    while (pages.at(-1)!.truncated) pages.push(await paging.deltas(pages.at(-1)!.seq));
    expect(pages.length).toBe(whole.changed.length + whole.removed.length);
    const rows = pages.flatMap((p) => [...p.changed, ...p.removed]);
    expect(rows.map((r) => r.seq)).toEqual([...whole.changed, ...whole.removed].map((r) => r.seq).sort((a, b) => a - b));
    expect(pages.slice(0, -1).every((p, i) => p.truncated && p.seq === rows[i]!.seq)).toBe(true);
    expect(pages.at(-1)).toMatchObject({ truncated: false, seq: whole.seq });
  });

  it("refuses a bad, unreached or too old since with 400 before payment, and settles nothing", async () => {
    for (const bad of [{}, { since: -1 }, { since: 1.5 }, { since: "1" }, { since: 1, extra: true }]) {
      expect((await refusedInput(`${svc.url}/api/v1/verdict-deltas`, bad)).status, JSON.stringify(bad)).toBe(400);
    }
    const current = (await svc.ctx.services.verdictFeed.snapshot()).seq;
    const ahead = await refusedInput(`${svc.url}/api/v1/verdict-deltas`, { since: current + 1 });
    expect((await body(ahead)).message).toContain(TAKE_A_SNAPSHOT);
    const payer = svc.payer(0);
    const before = await svc.balanceOf(payer);
    const base = svc.ctx.clock.now().getTime();
    svc.ctx.clock.set(new Date(base + 49 * HOUR));
    try {
      // The first's next change (the failing forecast) is now older than the window.
      const res = await svc.payingFetch(0, { spendCapUsd: "$1" })(`${svc.url}/api/v1/verdict-deltas`, postJson({ since: first.seq }));
      expect(res.status).toBe(400);
      expect((await body(res)).message).toMatch(/older than the 48-hour deltas window: take a new snapshot/);
      expect(await svc.balanceOf(payer)).toBe(before);
      // Forgetting the tombstone forgets the deltas below it, whatever their age.
      await applyRetention(svc.ctx.db.db, svc.ctx.clock.now());
      expect(await svc.ctx.db.db.selectFrom("verdict_removals").selectAll().execute()).toEqual([]);
      await expect(svc.ctx.services.verdictFeed.checkSince(current - 1, new Date(base))).rejects.toThrow(TAKE_A_SNAPSHOT);
      await expect(svc.ctx.services.verdictFeed.checkSince(current, new Date(base))).resolves.toBeUndefined();
      record(await svc.ctx.services.verdictFeed.snapshot());
    } finally {
      svc.ctx.clock.set(new Date(base));
    }
  });

  it("never numbers backwards", () => {
    expect(seen.length).toBeGreaterThan(6);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });
});
