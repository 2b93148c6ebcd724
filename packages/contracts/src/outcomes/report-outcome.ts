import { z } from "zod";
import { dateTime, httpUrlField } from "../common.js";
import { defineContract } from "../contract.js";
import { OUTCOMES } from "./typed-data.js";

const word = (what: string) => z.string().regex(/^0x[0-9a-fA-F]{64}$/, `${what} must be 0x followed by 64 hex digits`);

/** A payer's report, with exactly one of tx and nonce naming the settlement it paid. */
export const ReportOutcomeBody = z
  .object({
    url: httpUrlField().describe("the listed endpoint paid, as the agent called it"),
    tx: word("tx").optional().describe("the settlement's transaction hash"),
    nonce: word("nonce").optional().describe("the EIP-3009 authorization nonce the payer signed"),
    outcome: z.enum(OUTCOMES),
    detail: z.string().max(500, "detail must be at most 500 characters").optional().describe("what was (not) delivered, in a sentence"),
    payer: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, "payer must be an address")
      .describe("the wallet that paid and signs"),
    issued_at: z.number().int().positive().describe("unix seconds when signed; within 5 minutes of the service's clock"),
    signature: z
      .string()
      .regex(/^0x[0-9a-fA-F]+$/, "signature must be hex")
      .describe("the payer's EIP-712 signature (OUTCOME_REPORT_TYPES)"),
  })
  .strict()
  .refine((b) => (b.tx === undefined) !== (b.nonce === undefined), { message: "give exactly one of tx and nonce", path: ["tx"] });

export const OutcomeAcceptedSchema = z.object({
  id: z.string().describe("the report's id: or_ and 26 characters"),
  url: z.string().describe("the listing the report counts for"),
  outcome: z.enum(OUTCOMES),
  payer: z.string(),
  tx: z.string(),
  settled_at: dateTime(),
  amount_usdc: z.string(),
  accepted_at: dateTime(),
});

export type ReportOutcomeInput = z.input<typeof ReportOutcomeBody>;

export const reportOutcomeContract = defineContract({
  id: "report-outcome",
  method: "post",
  path: "/api/v1/outcomes",
  price: null,
  title: "Report a paid call's outcome",
  summary: "An agent that paid a listed endpoint says what it got, signed by the paying wallet; free, one report per settlement.",
  description:
    "The report is signed with EIP-712 (domain `x402 Lookout outcome report`, version 1; type OutcomeReport(string url, bytes32 transaction, bytes32 nonce, string outcome, string detail, uint256 issuedAt)) by the wallet that paid. It is accepted only when the chain shows that wallet's settled USDC transfer to the listing's payTo, named by its transaction or its authorization nonce, within the last 7 days, and only once per settlement. Accepted reports count per listing (forensics' `delivery.payer_reports_30d`) and feed `paid_no_delivery` beside Lookout's own paid checks (docs/signals.md). Limited to 30 reports a minute per client IP address.",
  body: ReportOutcomeBody,
  response: OutcomeAcceptedSchema,
  errors: [
    { status: 400, when: "malformed body: a field missing or malformed, both or neither of tx and nonce, issued_at off by more than 5 minutes" },
    { status: 404, when: "the url is not a listed endpoint" },
    { status: 409, when: "this settlement was reported already" },
    {
      status: 422,
      when: "refused: the signature is not the payer's (signature_invalid), no settlement to the listing's payTo matches the transaction or nonce, or not yet indexed: retry in a minute (not_paid), it was paid by another wallet (not_the_payer), or it settled more than 7 days ago (settlement_too_old)",
    },
    { status: 429, when: "more than 30 reports a minute from this client IP address" },
    { status: 503, when: "the database is unavailable" },
  ],
  examples: {
    request: {
      url: "https://api.example/weather/current",
      tx: "0x" + "ab".repeat(32),
      outcome: "undelivered",
      detail: "paid, then HTTP 500",
      payer: "0x1111111111111111111111111111111111111111",
      issued_at: 1_795_860_000,
      signature: "0x" + "cd".repeat(65),
    },
    response: {
      id: "or_k3v7q2m4x5w6y7z2a3b4c5d6e7",
      url: "https://api.example/weather/current",
      outcome: "undelivered",
      payer: "0x1111111111111111111111111111111111111111",
      tx: "0x" + "ab".repeat(32),
      settled_at: "2026-11-28T10:00:00.000Z",
      amount_usdc: "0.001",
      accepted_at: "2026-11-28T10:00:05.000Z",
    },
  },
});
export type OutcomeAccepted = z.infer<typeof OutcomeAcceptedSchema>;
