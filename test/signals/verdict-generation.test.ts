import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { perGeneration } from "../../src/db/read-models/per-generation.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { testDatabaseUrl } from "../helpers/db.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const bump = () => ctx.db.generation.bump(ctx.db.db, ctx.clock.now());
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("perGeneration", () => {
  it("builds once per generation, waits for a fast rebuild, and answers from the previous value while a slow one runs", async () => {
    expect((await ctx.db.generation.read()).generation).toBe(0);
    let builds = 0;
    let delay = 0;
    let fail = false;
    const value = perGeneration(
      ctx.db,
      async () => {
        const n = ++builds;
        await sleep(delay);
        if (fail) throw new Error("rebuild failed");
        return n;
      },
      100,
    );

    expect(await Promise.all([value(), value(), value()])).toEqual([1, 1, 1]); // one shared build
    expect(await value()).toBe(1);

    await bump();
    expect(await value()).toBe(2); // a fast rebuild is waited for

    await bump();
    delay = 400;
    const started = Date.now();
    expect(await value()).toBe(2); // the slow rebuild is not waited for past 100 ms...
    expect(Date.now() - started).toBeLessThan(350);
    expect(await value()).toBe(2); // ...nor started twice
    await sleep(450);
    expect(await value()).toBe(3);
    expect(builds).toBe(3);

    await bump();
    delay = 0;
    fail = true;
    expect(await value()).toBe(3); // a failed rebuild keeps the previous value
    fail = false;
    expect(await value()).toBe(5); // and the next call retries
    expect(await ctx.db.generation.read()).toMatchObject({ generation: 3, computedAt: ctx.clock.now().toISOString() });
  });
});

describe("currentGeneration", () => {
  it("is a sole writer exactly on PGlite", () => {
    expect(ctx.db.soleWriter).toBe(!testDatabaseUrl);
  });

  // A write behind the process's back cannot happen on PGlite (its data folder is locked to one
  // process); here it shows whether a read went to the database.
  const writeBehindTheBack = (generation: number) =>
    sql`update app_state set value = jsonb_build_object('generation', ${generation}::int, 'computedAt', null::text) where key = 'verdict_generation'`.execute(
      ctx.db.db,
    );

  it.skipIf(testDatabaseUrl)("on PGlite, reads once and then follows the process's own bumps", async () => {
    const read = ctx.db.generation.current;
    const first = (await read()).generation;
    await writeBehindTheBack(first + 100);
    expect((await read()).generation).toBe(first); // no statement: the remembered value
    await bump();
    expect((await read()).generation).toBe(first + 101); // the bump's own result
  });

  it.runIf(testDatabaseUrl)("on PostgreSQL, reads the database on every call", async () => {
    const read = ctx.db.generation.current;
    const first = (await read()).generation;
    await writeBehindTheBack(first + 100); // another process's recompute
    expect((await read()).generation).toBe(first + 100);
  });
});
