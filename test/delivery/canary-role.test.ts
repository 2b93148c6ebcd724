import { afterAll, describe, expect, it } from "vitest";
import { Lifecycle } from "../../src/lib/lifecycle.js";
import { startRole } from "../../src/roles.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { captureLog } from "../helpers/log-capture.js";

let ctx: TestContext | undefined;
afterAll(() => ctx?.close());

describe("the canary role", () => {
  it("is off without a key of its own, says so once, and starts no task", async () => {
    ctx = await createTestContext({ CATALOG_URLS: "https://c.example/discovery" });
    const captured = captureLog();
    const lifecycle = new Lifecycle(captured.log);
    await startRole("canary", { ctx: { ...ctx, log: captured.log }, rail: undefined, catalogUrls: [], lifecycle });
    const off = captured.lines.filter((l) => l.msg.includes("paid checker (role canary) is off"));
    expect(off).toHaveLength(1);
    expect(off[0]!.msg).toContain("CANARY_PRIVATE_KEY");
    expect(captured.lines.some((l) => l.msg === "paid checker on")).toBe(false);
    await lifecycle.shutdown("test");
  });
});
