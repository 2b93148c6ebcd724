import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { delistDiff, delistSnapshot } from "../../src/services/delist/feed.js";
import { recordDailyFlags } from "../../src/services/delist/record-flags.js";
import { recordQuotes } from "../../src/services/quotes/record.js";
import { DAY, HOUR } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";

/**
 * Issue 35 item 5 (decision 0038): a listing whose live challenge pays someone else than its
 * listing names is a delist reason, and `cdp_listed` is true only while CDP's own catalog lists it.
 */
let ctx: TestContext;
const ids: Record<string, number> = {};
const LISTED_PAYEE = "0x00000000000000000000000000000000000000a1";
const HIJACKER = "0x00000000000000000000000000000000000000b2";
const USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
const CDP_URL = "https://api.cdp.coinbase.com/platform/v2/x402/discovery/resources";

const url = (name: string) => `https://${name}.example/api`;
const snapshot = (scope: "all" | "critical" | "ghost" = "all") => delistSnapshot(ctx, { scope, limit: 2000 });
const entry = (s: Awaited<ReturnType<typeof snapshot>>, name: string) => s.should_delist.find((e) => e.url === url(name));
/** A probe read this payee in the endpoint's own challenge, just now. */
const challengePays = (name: string, payTo: string) =>
  recordQuotes(ctx.db.db, [
    {
      listingId: ids[name]!,
      at: new Date(ctx.clock.now().getTime() - 60_000),
      source: "probe",
      profile: "default",
      terms: {
        x402Version: 2,
        scheme: "exact",
        network: "eip155:84532",
        asset: USDC,
        payTo,
        amount: "10000",
        resourceUrl: url(name),
        maxTimeoutSeconds: 60,
        extra: null,
        malformed: null,
      },
    },
  ]);
const listedBy = (name: string, sourceId: string, listed = true) =>
  ctx.db.db
    .insertInto("listing_sources")
    .values({ listing_id: ids[name]!, source_id: sourceId, method: "POST", first_seen_at: ctx.clock.now(), last_seen_at: ctx.clock.now(), listed })
    .execute();

beforeAll(async () => {
  ctx = await createTestContext();
  for (const name of ["hijacked", "honest", "viacdp", "viaother", "cdpdropped", "renamedcdp"]) {
    const decoy = name !== "hijacked" && name !== "honest";
    ids[name] = await seedListing(ctx, { url: url(name), service: name, provider: `0x${name}`, payTo: LISTED_PAYEE, price: decoy ? "2500" : "0.01" });
    await seedProbes(ctx, ids[name]!, series(7 * DAY, HOUR));
  }
  await challengePays("hijacked", HIJACKER);
  await challengePays("honest", LISTED_PAYEE.toUpperCase().replace("0X", "0x"));
  await ctx.db.db
    .insertInto("catalog_sources")
    .values([
      { id: "cdp", url: CDP_URL, kind: "bazaar" },
      // CDP's catalog under another id (its URL normalised) is still CDP's.
      { id: "https://api.cdp.coinbase.com/platform/v2/x402/discovery/resources", url: CDP_URL, kind: "bazaar" },
      { id: "other", url: "https://x402.example/discovery/resources", kind: "bazaar" },
      // A manifest on CDP's host is not CDP's catalog.
      { id: "manifest:https://api.cdp.coinbase.com", url: "https://api.cdp.coinbase.com", kind: "manifest" },
    ])
    .execute();
  await listedBy("viacdp", "cdp");
  await listedBy("viaother", "other");
  await listedBy("viaother", "manifest:https://api.cdp.coinbase.com");
  await listedBy("cdpdropped", "cdp", false);
  await listedBy("cdpdropped", "other");
  await listedBy("renamedcdp", "https://api.cdp.coinbase.com/platform/v2/x402/discovery/resources");
  await recompute(ctx);
  await recordDailyFlags(ctx);
});
afterAll(() => ctx?.close());

describe("a hijacked payTo in the delist feed", () => {
  it("flags the listing whose challenge pays another payee, as a critical reason; a payee that differs only in case is not flagged", async () => {
    const s = await snapshot();
    expect(entry(s, "hijacked")).toMatchObject({ reasons: ["pay_to_mismatch"], confidence: "low", flagged_days_consecutive: 1 });
    expect(entry(s, "honest")).toBeUndefined();
    // by_reason has the spec's keys only; the reasons added to them count apart.
    expect(Object.keys(s.counts.by_reason)).toEqual(["decoy_price_extreme", "zombie", "dead_7d", "mostly_dead", "ghost_listing"]);
    expect(s.counts.by_added_reason).toEqual({ dead: 0, pay_to_mismatch: 1, paid_no_delivery: 0 });
    expect(entry(await snapshot("critical"), "hijacked")).toBeDefined();
    expect(entry(await snapshot("ghost"), "hijacked")).toBeUndefined();
  });

  it("records it in the flag history, lists it in the diff, and recovers it once the challenge names the listed payee again", async () => {
    const rows = await ctx.db.db.selectFrom("flag_history").select("reasons").where("listing_id", "=", ids.hijacked!).execute();
    expect(rows).toEqual([{ reasons: ["pay_to_mismatch"] }]);
    const diff = await delistDiff(ctx, { since: new Date(ctx.clock.now().getTime() - HOUR), scope: "critical", limit: 2000 });
    expect(diff.should_delist.map((e) => [e.url, e.reasons])).toContainEqual([url("hijacked"), ["pay_to_mismatch"]]);

    ctx.clock.advance(5 * 60_000);
    await challengePays("hijacked", LISTED_PAYEE);
    await recompute(ctx);
    const s = await snapshot();
    expect(entry(s, "hijacked")).toBeUndefined();
    expect(s.recovered).toContainEqual(expect.objectContaining({ url: url("hijacked"), was_reasons: ["pay_to_mismatch"] }));
  });
});

describe("cdp_listed", () => {
  it("is true only while a source on CDP's host (any id, not a manifest) lists the listing", async () => {
    const s = await snapshot();
    expect(entry(s, "viacdp")!.cdp_listed).toBe(true);
    expect(entry(s, "renamedcdp")!.cdp_listed).toBe(true);
    expect(entry(s, "viaother")!.cdp_listed).toBe(false);
    expect(entry(s, "cdpdropped")!.cdp_listed).toBe(false);
  });
});
