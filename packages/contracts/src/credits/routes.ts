import { z } from "zod";
import { CreditBundleSchema, CreditIdParams, CreditStatusSchema } from "./schemas.js";
import { defineContract } from "../contract.js";

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
});

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
});
