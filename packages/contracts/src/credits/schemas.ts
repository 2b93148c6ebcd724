import { z } from "zod";
import { dateTime } from "../common.js";

export const CreditBundleSchema = z.object({
  creditId: z.string().uuid().describe("bearer token; shown once and not retrievable later"),
  balance: z.number().int().describe("calls remaining; equals initialBalance on issue"),
  initialBalance: z.number().int(),
  paidAmount: z.string().describe("USDC decimal"),
  payerAddress: z.string().nullable(),
  createdAt: dateTime(),
  expiresAt: dateTime().describe("90 days after issue"),
  usage: z
    .object({
      header: z.string().describe("the header that pays a preflight call from this bundle"),
      statusUrl: z.string().describe("free status address of this bundle"),
    })
    .describe("how to use the bundle"),
});

/** The status carries the same usage hint as the issued bundle (spec 2.9). */
export const CreditStatusSchema = CreditBundleSchema.extend({
  used: z.number().int().describe("initialBalance minus balance"),
  expired: z.boolean(),
  paymentTx: z.string().nullable(),
  paymentNetwork: z.string().nullable(),
});

export const CreditIdParams = z.object({ id: z.string().describe("the creditId (uuid)") });
