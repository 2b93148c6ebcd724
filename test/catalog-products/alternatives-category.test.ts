import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAlternativesService, type AlternativesService } from "../../src/services/alternatives/service.js";
import { categoryIsSet, categoryOf } from "../../src/services/catalog/index.js";
import { DAY, HOUR } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";

/**
 * Issue 35 item 8: alternatives match by category only when the category names what the
 * endpoint is; a transliteration endpoint whose category "ai" came from an umbrella tag is not
 * offered sentiment and summaries (decision 0039).
 */
let ctx: TestContext;
let service: AlternativesService;

/** A healthy listing as a catalog with these tags would have stored it (category by categoryOf). */
async function listing(url: string, svc: string, tags: string[], price: string) {
  const id = await seedListing(ctx, { url, service: svc, provider: `0x${svc.toLowerCase()}`, price, category: categoryOf(tags) ?? undefined });
  await ctx.db.db
    .updateTable("listings")
    .set({ tags, category: categoryOf(tags) })
    .where("id", "=", id)
    .execute();
  await seedProbes(ctx, id, series(7 * DAY, HOUR));
}

beforeAll(async () => {
  ctx = await createTestContext();
  service = createAlternativesService({ db: ctx.db });
  await listing("https://nimbus.example/v2/transliterate", "Nimbus", ["translation", "ai"], "0.002");
  await listing("https://nimbus.example/v2/translate", "Nimbus", ["translation", "ai"], "0.002");
  await listing("https://digest.example/ai/sentiment", "Digest", ["ai", "llm", "summarization"], "0.002");
  await listing("https://digest2.example/ai/summarize", "Digest Two", ["ai", "nlp"], "0.003");
  await listing("https://lingo.example/translit", "Lingo", ["Translation"], "0.004");
  await listing("https://untagged.example/x", "Untagged", [], "0.002");
  await recompute(ctx);
});
afterAll(() => ctx?.close());

const offered = async (url: string) => (await service.find({ url, limit: 10 })).alternatives.map((a) => `${a.url} ${a.match_reason}`);

describe("alternatives by category only when the category is set", () => {
  it("tells a category the first tag names from a fallback", () => {
    expect(categoryIsSet("ai", ["ai", "llm"])).toBe(true);
    expect(categoryIsSet("ai", ["translation", "ai"])).toBe(false);
    expect(categoryIsSet("other", ["translation"])).toBe(false);
    expect(categoryIsSet(null, [])).toBe(false);
    // Set by hand, not derived from the tags: it is what the operator says it is.
    expect(categoryIsSet("geo", [])).toBe(true);
  });

  it("offers a transliteration endpoint its own service and tag-sharing peers at a similar price, never other 'ai' endpoints", async () => {
    expect(await offered("https://nimbus.example/v2/transliterate")).toEqual([
      "https://nimbus.example/v2/translate same_service",
      "https://lingo.example/translit similar_price",
    ]);
  });

  it("keeps a set category's matches among listings whose category is set", async () => {
    expect(await offered("https://digest.example/ai/sentiment")).toEqual(["https://digest2.example/ai/summarize same_category"]);
  });

  it("matches a listing without category or tags by nothing but service, provider and domain", async () => {
    await expect(service.find({ url: "https://untagged.example/x", limit: 10 })).rejects.toMatchObject({ code: "no_alternatives" });
  });
});
