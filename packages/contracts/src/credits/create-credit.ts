import { z } from "zod";
import { dateTime } from "../common.js";
import { defineContract } from "../contract.js";

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

export const createCreditContract = defineContract({
  id: "credits",
  method: "post",
  path: "/api/v1/credits",
  price: "0.50",
  product: "Credits",
  title: "Prepaid credit bundle",
  summary: "Buys 1000 preflight calls, valid 90 days, for one 0.50 USDC payment.",
  description:
    "Pay once and send the returned creditId as the X-Credit-Id header on POST /api/v1/preflight instead of paying each call. The creditId is a bearer token: it is shown once, here, and cannot be retrieved later.\n\nOne call is spent per answered preflight; a failed answer gives its call back. An exhausted or expired bundle falls through to the normal per-call payment. Repeating the same payment answers 409 with the bundle it already bought.",
  body: z.object({}).passthrough(),
  bodyOptional: true,
  response: CreditBundleSchema,
  errors: [
    { status: 400, when: "the body is not a JSON object" },
    { status: 409, when: "this payment already minted a bundle; the body's `credit` holds it" },
    { status: 503, when: "the database is unavailable; nothing was settled" },
  ],
  examples: {
    request: {},
    response: {
      creditId: "6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10",
      balance: 1000,
      initialBalance: 1000,
      paidAmount: "0.5",
      payerAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      createdAt: "2026-11-20T12:00:00.000Z",
      expiresAt: "2027-02-18T12:00:00.000Z",
      usage: {
        header: "X-Credit-Id: 6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10",
        statusUrl: "https://lookout.example/api/v1/credits/6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10",
      },
    },
  },
});
