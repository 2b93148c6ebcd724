import { z } from "zod";
import { dateTime } from "../common.js";
import { PreflightWarningCodeSchema, ReasonCodeSchema, RecommendedActionSchema } from "../preflight/schemas.js";

/** Spec addition: one catalogued endpoint's verdict and the terms it was judged on, as the offline guard keeps it. */
export const VerdictEntrySchema = z.object({
  url: z.string(),
  method: z.string(),
  ok: z.boolean(),
  action: RecommendedActionSchema.describe("the preflight recommended_action"),
  warnings: z.array(PreflightWarningCodeSchema).describe("the preflight warnings: the spec's codes among reason_codes"),
  reason_codes: z.array(ReasonCodeSchema).describe("the preflight reason_codes: every code that fired, additions included (decision 0045)"),
  pay_to: z.string().nullable().describe("the payTo of the quote the listing is priced by (newest probe, else the catalog)"),
  asset: z.string().nullable(),
  network: z.string().nullable(),
  amount: z.string().nullable().describe("atomic units of the asset"),
  price_usdc: z.string().nullable(),
  seq: z.number().int().describe("the sequence number at which this entry last changed"),
});

export const RemovedEntrySchema = z.object({ url: z.string(), method: z.string(), seq: z.number().int() });

export const VerdictSnapshotBody = z.object({}).strict();

export const VerdictDeltasBody = z
  .object({
    since: z
      .number({ error: "since must be a sequence number" })
      .int("since must be an integer")
      .min(0, "since must be at least 0")
      .describe("the seq of the snapshot or delta last applied"),
  })
  .strict();

const signature = () =>
  z
    .string()
    .describe("compact JWS (EdDSA, typ lookout-snapshot+jwt) over iss, kind, since, seq, count, entries_digest, generated_at and exp (docs/offline-guard.md)");

export const VerdictSnapshotSchema = z.object({
  seq: z.number().int().describe("the snapshot is consistent at this sequence number; poll deltas since it"),
  generated_at: dateTime(),
  expires_at: dateTime().describe("generated_at plus 15 minutes: the guard decides locally until then"),
  count: z.number().int(),
  entries: z.array(VerdictEntrySchema),
  signature: signature(),
});

export const VerdictDeltasSchema = z.object({
  since: z.number().int(),
  seq: z.number().int().describe("apply, then ask again from this sequence number"),
  generated_at: dateTime(),
  expires_at: dateTime(),
  truncated: z.boolean().describe("true when more changes remain after seq: ask again at once"),
  changed: z.array(VerdictEntrySchema),
  removed: z.array(RemovedEntrySchema).describe("listings that left the catalog: the guard forgets them"),
  signature: signature(),
});

/** The claims a snapshot's or delta's signature carries; entries_digest binds the entries (docs/offline-guard.md). */
export const SnapshotClaimsSchema = z.object({
  iss: z.string(),
  kind: z.enum(["snapshot", "deltas"]),
  since: z.number().int().nullable(),
  seq: z.number().int(),
  count: z.number().int(),
  entries_digest: z.string().describe("sha256 (base64url) of JSON.stringify([entries]) for a snapshot, of JSON.stringify([changed, removed]) for deltas"),
  generated_at: z.string(),
  exp: z.number().int(),
});

export type VerdictEntry = z.infer<typeof VerdictEntrySchema>;
export type VerdictSnapshot = z.infer<typeof VerdictSnapshotSchema>;
export type VerdictDeltas = z.infer<typeof VerdictDeltasSchema>;
export type SnapshotClaims = z.infer<typeof SnapshotClaimsSchema>;
