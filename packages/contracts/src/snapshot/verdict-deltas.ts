import { defineContract } from "../contract.js";
import { SNAPSHOT_LIMITS as LIMITS } from "./limits.js";
import { VerdictDeltasBody, VerdictDeltasSchema } from "./schemas.js";
import { DEAD, SIGNATURE, SIGNED } from "./verdict-snapshot.js";

export const VERDICT_DELTAS_EXAMPLE = {
  since: 4213,
  seq: 4220,
  generated_at: "2026-11-20T12:01:00.000Z",
  expires_at: "2026-11-20T12:16:00.000Z",
  truncated: false,
  changed: [{ ...DEAD, ok: true, action: "pay" as const, warnings: [], reason_codes: [], seq: 4217 }],
  removed: [{ url: "https://premium.example/alpha", method: "POST", seq: 4220 }],
  signature: SIGNATURE,
};

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
  examples: { request: { since: 4213 }, response: VERDICT_DELTAS_EXAMPLE },
});
