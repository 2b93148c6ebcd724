import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.js";
import { migratedTemplate } from "../helpers/db.js";

/**
 * On PGlite the process is the database: an answered credit spend must be on disk before the
 * answer, or killing the process gives the call back (decision 0008). Runs on PGlite only.
 */

const dataDir = mkdtempSync(join(tmpdir(), "lookout-credit-kill-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function withDb<T>(work: (db: Awaited<ReturnType<typeof openDatabase>>["db"]) => Promise<T>, loadDataDir?: Blob): Promise<T> {
  const h = await openDatabase({ dataDir, ...(loadDataDir ? { loadDataDir } : {}) });
  try {
    return await work(h.db);
  } finally {
    await h.close();
  }
}

/** Runs the child to its SIGKILL; its stdout, one answered balance a line. */
function spendThenDie(creditId: string, calls: number): Promise<{ signal: string | null; balances: string[] }> {
  const child = spawn(
    process.execPath,
    ["--conditions=@x402-lookout/source", "--import", "tsx", "test/payments/fixtures/spend-then-die.ts", dataDir, creditId, String(calls)],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let out = "";
  child.stdout.on("data", (b: Buffer) => (out += b.toString()));
  return new Promise((resolve) => child.once("close", (_code, signal) => resolve({ signal, balances: out.trim().split("\n") })));
}

describe("a credit spend answered on PGlite", () => {
  it("survives a SIGKILL of the process right after the answer", async () => {
    const creditId = await withDb(
      async (db) => {
        const payment = await db
          .insertInto("payments")
          .values({
            authorization_key: "k1",
            request_id: "r1",
            route: "credits",
            network: "eip155:84532",
            amount_atomic: "500000",
            status: "settled",
            tx_hash: "0x1",
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        const credit = await db
          .insertInto("credits")
          .values({
            balance: 10,
            initial_balance: 1000,
            paid_amount: "0.5",
            payment_id: payment.id,
            payment_network: "eip155:84532",
            expires_at: new Date(Date.now() + 86_400_000),
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        return credit.id;
      },
      await migratedTemplate(),
    );

    expect(await spendThenDie(creditId, 3)).toEqual({ signal: "SIGKILL", balances: ["9", "8", "7"] });
    const after = await withDb((db) => db.selectFrom("credits").select("balance").where("id", "=", creditId).executeTakeFirstOrThrow());
    expect(after.balance).toBe(7);
  }, 60_000);
});
