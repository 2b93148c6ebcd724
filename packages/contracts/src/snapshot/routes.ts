import { defineContract } from "../contract.js";
import { SNAPSHOT_LIMITS as LIMITS } from "./limits.js";
import { VerdictDeltasBody, VerdictDeltasSchema, VerdictSnapshotBody, VerdictSnapshotSchema } from "./schemas.js";

const SIGNED =
  "The answer carries `signature`, a compact JWS (EdDSA, typ lookout-snapshot+jwt, keys at /.well-known/jwks.json) over its kind, since, seq, count, generated_at, exp and entries_digest (sha256, base64url, of the entries as JSON): docs/offline-guard.md.";

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
});

export const verdictDeltasContract = defineContract({
  id: "verdict-deltas",
  method: "post",
  path: "/api/v1/verdict-deltas",
  price: "0.001",
  title: "Verdict deltas (offline guard)",
  summary: "The entries that changed and the listings that left the catalog since a sequence number.",
  description: [
    `changed holds the entries whose sequence number is above \`since\` and removed the listings that left the catalog since then, together in sequence order, at most ${LIMITS.deltaMaxEntries.toLocaleString("en")} per answer. Apply them and ask again from \`seq\`; \`truncated\` means more remain after \`seq\`: ask again at once.`,
    `Deltas reach back ${LIMITS.deltaWindowHours} hours. A \`since\` whose next change is older than that, below a removal already forgotten, or above the current sequence number is refused with 400 before payment: take a new snapshot from POST /api/v1/verdict-snapshot. ${SIGNED}`,
  ].join("\n\n"),
  body: VerdictDeltasBody,
  response: VerdictDeltasSchema,
  errors: [
    {
      status: 400,
      when: `since missing or not a non-negative integer; older than the ${LIMITS.deltaWindowHours}-hour window or not yet reached (take a new snapshot); nothing is charged`,
    },
    { status: 503, when: "the database timed out; nothing was settled" },
  ],
});
