import { z } from "zod";
import { defineContract } from "../contract.js";
import { CreditBundleSchema } from "./create-credit.js";

/** The status carries the same usage hint as the issued bundle. */
export const CreditStatusSchema = CreditBundleSchema.extend({
  used: z.number().int().describe("initialBalance minus balance"),
  expired: z.boolean(),
  paymentTx: z.string().nullable(),
  paymentNetwork: z.string().nullable(),
});

export const CreditIdParams = z.object({ id: z.string().describe("the creditId (uuid)") });

export const getCreditContract = defineContract({
  id: "credits-status",
  method: "get",
  path: "/api/v1/credits/:id",
  price: null,
  title: "Credit bundle status",
  summary: "Balance, expiry and payment of a credit bundle; free for anyone holding the creditId.",
  description: "Malformed and unknown ids answer the same 404 body, so the two cannot be told apart.",
  params: CreditIdParams,
  response: CreditStatusSchema,
  errors: [
    { status: 404, when: "the id is malformed or unknown (identical bodies)" },
    { status: 503, when: "the database is unavailable" },
  ],
  examples: {
    response: {
      creditId: "6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10",
      balance: 998,
      initialBalance: 1000,
      used: 2,
      expired: false,
      paidAmount: "0.5",
      payerAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      createdAt: "2026-11-20T12:00:00.000Z",
      expiresAt: "2027-02-18T12:00:00.000Z",
      paymentTx: "0x5e3c0b6d0a7f1f1c3f8e1b2a9d4c6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d",
      paymentNetwork: "eip155:84532",
      usage: {
        header: "X-Credit-Id: 6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10",
        statusUrl: "https://lookout.example/api/v1/credits/6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10",
      },
    },
  },
});
