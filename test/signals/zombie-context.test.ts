import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluate } from "../../src/services/signals/engine.js";
import { selectReportRows } from "../../src/services/signals/listing-row.js";
import { signalInput, storedContext } from "../../src/services/signals/signal-input.js";
import { recompute, seedListing, seedProbes } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const MINUTE = 60_000;
const failed = (n: number) => Array.from({ length: n }, (_, i) => ({ ago: (1 + 4 * i) * MINUTE, healthy: false }));
const snapshot = (id: number) => ctx.db.db.selectFrom("signal_snapshots").selectAll().where("listing_id", "=", id).executeTakeFirstOrThrow();
const service = async (name: string) => [
  await seedListing(ctx, { url: `https://${name}.zombie.test/a`, service: name }),
  await seedListing(ctx, { url: `https://${name}.zombie.test/b`, service: name }),
];

describe("zombie counts the service's distinct endpoints", () => {
  it("does not call a 2-endpoint service a zombie when one endpoint failed and the other has no probes", async () => {
    const [a, b] = await service("halfdead");
    await seedProbes(ctx, a!, failed(3));
    await recompute(ctx);
    const s = await snapshot(a!);
    expect(s.warnings).toContain("dead");
    expect(s.warnings).not.toContain("zombie");
    expect(s.detail).toMatchObject({ context: { service_endpoints: 2, service_failed_endpoints: 1, service_healthy_endpoints: 0 } });
    expect((await snapshot(b!)).warnings).not.toContain("zombie");

    // The other endpoint with too few probes of its own is still not enough evidence.
    await seedProbes(ctx, b!, failed(2));
    await recompute(ctx);
    expect((await snapshot(a!)).warnings).not.toContain("zombie");

    // Every endpoint failed, each with enough probes: a zombie, on every listing of the service.
    await seedProbes(ctx, b!, [{ ago: 30 * MINUTE, healthy: false }]);
    await recompute(ctx);
    expect((await snapshot(a!)).warnings).toContain("zombie");
    expect((await snapshot(b!)).warnings).toContain("zombie");
    expect((await snapshot(b!)).detail).toMatchObject({ context: { service_endpoints: 2, service_failed_endpoints: 2 } });
  });

  it("clears as soon as one endpoint has a healthy probe in the window", async () => {
    const [a, b] = await service("onealive");
    await seedProbes(ctx, a!, failed(3));
    await seedProbes(ctx, b!, [...failed(3), { ago: 40 * MINUTE, healthy: true }]);
    await recompute(ctx);
    expect((await snapshot(a!)).warnings).not.toContain("zombie");
    expect((await snapshot(a!)).detail).toMatchObject({ context: { service_failed_endpoints: 1, service_healthy_endpoints: 1 } });
  });

  it("reads a context stored before the endpoint counts existed without a zombie", async () => {
    const [a] = await service("oldsnapshot");
    await seedProbes(ctx, a!, failed(3));
    await recompute(ctx);
    // The context as an earlier version stored it: probes and errors summed over the service.
    await sql`update signal_snapshots set detail = jsonb_set(detail, '{context}',
      (detail->'context') - 'service_endpoints' - 'service_failed_endpoints' - 'service_healthy_endpoints'
        || '{"service_probes_1h": 3, "service_errors_1h": 3}'::jsonb)
      where listing_id = ${a!}`.execute(ctx.db.db);
    const row = await selectReportRows(ctx.db.db).where("l.id", "=", a!).executeTakeFirstOrThrow();
    expect(storedContext(row)).toMatchObject({ service_probes_1h: 3 });
    const verdict = evaluate(signalInput(row, storedContext(row)), ctx.clock.now(), "forensics");
    expect(verdict.warnings).toContain("dead");
    expect(verdict.warnings).not.toContain("zombie");
  });
});
