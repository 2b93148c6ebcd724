import type { AppContext } from "../../src/context.js";
import { newCheckId } from "../../src/services/delivery/ledger.js";

/** A done paid check as the checker stores it (decision 0051), for tests that read the evidence route. */
export async function insertDeliveryCheck(ctx: Pick<AppContext, "db" | "clock">, url: string): Promise<string> {
  const id = newCheckId();
  const at = ctx.clock.now();
  await ctx.db.db
    .insertInto("delivery_checks")
    .values({
      id,
      url,
      method: "GET",
      host: new URL(url).host,
      state: "done",
      outcome: "delivered",
      spent_atomic: "1000",
      tx: "0x" + "ab".repeat(32),
      started_at: at,
      finished_at: at,
    })
    .execute();
  return id;
}
