import { z } from "zod";
import { ALL_CODES } from "../codes.js";
import { dateTime, httpUrlField } from "../common.js";
import { ReasonCodeSchema } from "../preflight/schemas.js";
import { DEFAULT_SIGNALS, LEFT_CATALOG, MAX_SIGNALS } from "./limits.js";
import { webhookUrlSyntaxProblem } from "./webhook-url.js";

const signalName = z.enum(ALL_CODES as unknown as [string, ...string[]], {
  error: `unknown signal; use a preflight or forensics warning code: ${ALL_CODES.join(", ")}`,
});

export const CreateWatchBody = z.object({
  url: httpUrlField().describe("the x402 endpoint to watch (http or https; catalogued or not)"),
  webhookUrl: z
    .string({ error: "must be a string" })
    // What the text alone refuses whatever the deployment: malformed, userinfo. Private literals
    // are refused by the route's check; https-only, loopback and DNS when the watch is created.
    .superRefine((v, ctx) => {
      const problem = webhookUrlSyntaxProblem(v, { allowPrivate: true });
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .describe("https receiver of the alerts; must not carry userinfo nor point at a private, loopback, link-local or metadata address"),
  signals: z
    .array(signalName, { error: "signals must be an array of warning codes" })
    .min(1, "signals needs at least one code (omit it for the default)")
    .max(MAX_SIGNALS, `at most ${MAX_SIGNALS} signals`)
    .optional()
    .describe(`warning codes to watch; default ${DEFAULT_SIGNALS.join(", ")}`),
});

export const WatchCreatedSchema = z.object({
  watchId: z.string().uuid(),
  secret: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .describe(
      "shown once: Authorization: Bearer <secret> (or X-Watch-Secret) on status and unsubscribe; every alert is signed with HMAC-SHA256 keyed with this exact string",
    ),
  signingSecret: z
    .string()
    .regex(/^whsec_/, "starts with whsec_")
    .describe(
      "shown once: the secret in Standard Webhooks form (whsec_ + base64 of the secret's bytes); pass to new Webhook(signingSecret) of the standardwebhooks library to verify alerts",
    ),
  url: z.string(),
  webhookUrl: z.string(),
  signals: z.array(ReasonCodeSchema),
  createdAt: dateTime(),
  expiresAt: dateTime().describe("30 days after creation"),
  alertsRemaining: z.number().int().describe("100 at creation; one is spent per alert"),
  statusUrl: z.string(),
  unsubscribeUrl: z.string().describe("DELETE with the secret"),
  delivery: z
    .object({
      format: z.string(),
      method: z.literal("POST"),
      headers: z.array(z.string()),
      payload: z.record(z.string(), z.string()).describe("field -> meaning"),
      verify: z.string(),
      retries: z.string(),
    })
    .describe("how alerts are delivered and verified"),
});

export const WatchStatusSchema = z.object({
  watchId: z.string().uuid(),
  state: z.enum(["active", "expired", "unsubscribed"]),
  url: z.string(),
  webhookUrl: z.string(),
  signals: z.array(ReasonCodeSchema),
  createdAt: dateTime(),
  expiresAt: dateTime(),
  unsubscribedAt: dateTime().nullable(),
  alertsRemaining: z.number().int(),
  signalStates: z
    .array(
      z.object({
        signal: ReasonCodeSchema,
        state: z
          .enum(["fired", "cleared", "unknown"])
          .describe(
            "unknown: too little evidence to say fired or cleared (no or too few probes in the hour, no price, an unlisted URL), or not evaluated yet; alerts are raised only between fired and cleared",
          ),
        since: dateTime().nullable(),
        evidence: z.record(z.string(), z.unknown()),
      }),
    )
    .describe("the last evaluated state of each subscribed signal"),
  listing: z
    .object({
      listed: z.boolean().nullable().describe("false once the listing left the catalog; null while the URL was never listed or before the first evaluation"),
      since: dateTime().nullable().describe("when the alerter saw the listing leave or return"),
      evidence: z.record(z.string(), z.unknown()).describe("listed, last_seen_at, left_at"),
    })
    .describe("whether the watched URL is still listed: every watch hears left_catalog (fired when it leaves, cleared when it returns) without subscribing"),
  deliveries: z
    .array(
      z.object({
        webhookId: z.string().uuid().describe("the webhook-id header of every attempt"),
        signal: z.union([ReasonCodeSchema, z.literal(LEFT_CATALOG)]).describe("a subscribed warning code, or left_catalog"),
        state: z.enum(["fired", "cleared"]),
        status: z.enum(["pending", "delivered", "failed", "skipped_quota_exceeded"]),
        attempts: z.number().int(),
        lastResponseCode: z.number().int().nullable(),
        lastError: z.string().nullable(),
        createdAt: dateTime(),
        nextAttemptAt: dateTime().nullable().describe("set while pending"),
        deliveredAt: dateTime().nullable(),
      }),
    )
    .describe("the last 10 alerts, newest first"),
});

export const WatchIdParams = z.object({ id: z.string().describe("the watchId (uuid)") });

/** How the secret returned at creation is presented on status and unsubscribe. */
export const SECRET_HEADERS = [
  { name: "Authorization", description: "Bearer <secret> returned when the watch was created" },
  { name: "X-Watch-Secret", description: "the same secret, as an alternative to Authorization" },
  { name: "X-X402Station-Secret", description: "the same secret, as the x402station MCP adapter sends it" },
];
