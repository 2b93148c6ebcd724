import { defineContract } from "../contract.js";
import { SNAPSHOT_LIMITS as LIMITS } from "./limits.js";
import { VerdictSnapshotBody, VerdictSnapshotSchema } from "./schemas.js";

export const SIGNED =
  "The answer carries `signature`, a compact JWS (EdDSA, typ lookout-snapshot+jwt, keys at /.well-known/jwks.json) over its kind, since, seq, count, generated_at, exp and entries_digest (sha256, base64url, of the entries as JSON): docs/offline-guard.md.";

const PAY_TO = "0x5b0e3b4d1c7e0a6f2d9c8b7a6e5f4d3c2b1a0f9e";
const USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
// An illustration of the shape: a real signature is a compact JWS over the answer's claims.
export const SIGNATURE = "eyJhbGciOiJFZERTQSIsImtpZCI6ImsxIiwidHlwIjoibG9va291dC1zbmFwc2hvdCtqd3QifQ.eyJraW5kIjoic25hcHNob3QifQ.c2lnbmF0dXJl";

const HEALTHY = {
  url: "https://weather.example/v1/forecast",
  method: "GET",
  ok: true,
  action: "pay" as const,
  warnings: [],
  reason_codes: [],
  pay_to: PAY_TO,
  asset: USDC,
  network: "eip155:84532",
  amount: "2000",
  price_usdc: "0.002",
  seq: 4180,
};

export const DEAD = {
  url: "https://weather.example/v2/broken",
  method: "GET",
  ok: false,
  action: "use_alternatives" as const,
  warnings: ["dead" as const, "zombie" as const],
  reason_codes: ["dead" as const, "zombie" as const],
  pay_to: PAY_TO,
  asset: USDC,
  network: "eip155:84532",
  amount: "2000",
  price_usdc: "0.002",
  seq: 4213,
};

export const VERDICT_SNAPSHOT_EXAMPLE = {
  seq: 4213,
  generated_at: "2026-11-20T12:00:00.000Z",
  expires_at: "2026-11-20T12:15:00.000Z",
  count: 2,
  entries: [HEALTHY, DEAD],
  signature: SIGNATURE,
};

export const verdictSnapshotContract = defineContract({
  id: "verdict-snapshot",
  method: "post",
  path: "/api/v1/verdict-snapshot",
  price: "0.25",
  title: "Verdict snapshot (offline guard)",
  summary: "The preflight verdict of every catalogued listing, with the terms it was judged on, signed, for deciding payments locally.",
  description: [
    "Every active listing's entry: ok, recommended action and warnings exactly as POST /api/v1/preflight answers for it, and the terms the prober prices it by (payTo, asset, network, atomic amount of the newest challenge, else the catalog's). Each entry carries the sequence number at which it last changed; the snapshot is consistent at `seq`.",
    `Keep it current with POST /api/v1/verdict-deltas since \`seq\` (0.001 USDC); an answer speaks for ${LIMITS.lifetimeSeconds / 60} minutes after generated_at. ${SIGNED}`,
  ].join("\n\n"),
  body: VerdictSnapshotBody,
  bodyOptional: true,
  response: VerdictSnapshotSchema,
  errors: [
    { status: 400, when: "a body other than {}; nothing is charged" },
    { status: 503, when: "the database timed out; nothing was settled" },
  ],
  examples: { request: {}, response: VERDICT_SNAPSHOT_EXAMPLE },
});
