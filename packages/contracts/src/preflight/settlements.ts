import { z } from "zod";
import { dateTime } from "../common.js";

const usdc = () => z.string().regex(/^\d+(\.\d{1,6})?$/);

/** What the chain shows was paid to a listing (decision 0052): forensics' evidence.settlements. */
export const SettlementsSchema = z
  .object({
    attribution: z
      .enum(["listing", "amount", "pay_to"])
      .describe(
        "listing: its payTo has no other listing; amount: its price is its own among the payTo's listings; pay_to: shared with listings of the same or no price",
      ),
    calls_24h: z.number().int(),
    calls_7d: z.number().int(),
    calls_30d: z.number().int(),
    volume_usdc_24h: usdc(),
    volume_usdc_7d: usdc(),
    volume_usdc_30d: usdc(),
    distinct_payers_30d: z.number().int(),
    first_settled_at: dateTime().nullable().describe("the earliest settlement in the indexed window (30 days and more)"),
    last_settled_at: dateTime().nullable(),
    known_facilitator_share: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .describe("of the 30 days' settlements, the share sent by a signer a known facilitator declares (/supported)"),
    pay_to: z.object({
      address: z.string(),
      calls_30d: z.number().int(),
      volume_usdc_30d: usdc(),
      distinct_payers_30d: z.number().int(),
      unattributed_calls_30d: z.number().int().describe("settlements no listing's price explains"),
      listings: z.number().int().describe("active listings naming this payTo"),
      hosts: z.number().int().describe("distinct hosts among them"),
    }),
    self_dealing: z.boolean().describe("the payTo's only payers are itself, or one wallet paying it again and again"),
    used_30d: z.boolean().describe("settled by someone else than itself, one repeat wallet or Lookout's paid checker in 30 days"),
    daily: z.array(z.object({ day: z.string(), calls: z.number().int(), volume_usdc: usdc() })).describe("the last 30 UTC days, oldest first, today last"),
    indexed_to_block: z.string().describe("the chain was read up to this block for the payTo"),
  })
  .describe("settlements to the listing's payTo read from the chain's USDC logs (docs/signals.md, decision 0052); null when not indexed");

export type Settlements = z.infer<typeof SettlementsSchema>;
