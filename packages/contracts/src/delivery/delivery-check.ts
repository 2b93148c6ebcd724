import { z } from "zod";
import { dateTime } from "../common.js";
import { defineContract } from "../contract.js";

/** The signed evidence document of a paid check: its JWS type (verified with the verdict keys, /.well-known/jwks.json). */
export const DELIVERY_CHECK_JWS = { alg: "EdDSA", typ: "lookout-delivery-check+jwt" } as const;
/** Checks are kept, and served, this long. */
export const DELIVERY_CHECK_RETENTION_DAYS = 30;

export const DeliveryCheckParams = z.object({
  id: z
    .string()
    .regex(/^dc_[a-z2-7]{26}$/, "id must be a delivery check id: dc_ followed by 26 characters a-z and 2-7")
    .describe("the check's id, as forensics' delivery.recent and evidence_url name it"),
});

/** The fields the document signs, exactly as the answer states them. */
export const DeliveryCheckFieldsSchema = z.object({
  id: z.string(),
  url: z.string().describe("the listing paid (the request's URL, with its input, is in evidence.request)"),
  method: z.string(),
  state: z.enum(["reserved", "paying", "done"]).describe("done once the chain says what was paid; an open check has no outcome yet"),
  outcome: z.enum(["delivered", "invalid_output", "undelivered", "refused_after_payment", "not_settled", "skipped", "interrupted"]).nullable(),
  reason: z.string().nullable(),
  paid_usdc: z.string().describe("what the chain shows was paid (0 when nothing settled)"),
  tx: z.string().nullable(),
  payer: z.string().nullable().describe("the paid checker's wallet (also on /prober)"),
  pay_to: z.string().nullable(),
  network: z.string().nullable(),
  started_at: dateTime(),
  finished_at: dateTime().nullable(),
  evidence: z
    .record(z.string(), z.unknown())
    .describe("the 402 paid, the request sent, the answer (status, headers, size, sha256, first bytes), timings, the settlement"),
});

export const DeliveryCheckSchema = DeliveryCheckFieldsSchema.extend({
  document: z.string().describe(`compact JWS (EdDSA, typ ${DELIVERY_CHECK_JWS.typ}) whose payload is every field above; verify it offline against jwks_url`),
  jwks_url: z.string(),
});

export type DeliveryCheck = z.infer<typeof DeliveryCheckSchema>;

export const deliveryCheckContract = defineContract({
  id: "delivery-check",
  method: "get",
  path: "/api/v1/delivery-checks/:id",
  price: null,
  title: "Delivery check evidence",
  summary: "What one of Lookout's paid checks paid, sent and got back, as a signed document; free.",
  description:
    "The paid checker (decision 0051) pays a sample of listings from its own wallet and keeps, for 30 days, the 402 it paid, the request it sent, the answer's status, headers, size, hash and first bytes, the timings and the settlement transaction. The answer states them and signs them as a JWS with the verdict keys, so a provider or an agent can hold it up in a dispute and anyone can check it offline.",
  params: DeliveryCheckParams,
  response: DeliveryCheckSchema,
  errors: [
    { status: 400, when: "the id is not a delivery check id" },
    { status: 404, when: "no check with this id, or it is older than 30 days" },
    { status: 503, when: "the database is unavailable" },
  ],
  examples: {
    response: {
      id: "dc_k3v7q2m4x5w6y7z2a3b4c5d6e7",
      url: "https://api.example/weather/current",
      method: "GET",
      state: "done",
      outcome: "undelivered",
      reason: "status_500",
      paid_usdc: "0.001",
      tx: "0x" + "ab".repeat(32),
      payer: "0x08135Da0A343E492FA2d4282F2AE34c6c5CC1BbE",
      pay_to: "0x1111111111111111111111111111111111111111",
      network: "eip155:8453",
      started_at: "2026-11-28T10:00:00.000Z",
      finished_at: "2026-11-28T10:00:01.250Z",
      evidence: { answer: { status: 500, size: 21, sha256: "9f…", first_bytes_base64: "eyJlcnJvciI6ImJvb20ifQ==" } },
      document: "eyJhbGciOiJFZERTQSJ9.eyJpZCI6ImRjXy4uLiJ9.c2lnbmF0dXJl",
      jwks_url: "https://lookout.example/.well-known/jwks.json",
    },
  },
});
