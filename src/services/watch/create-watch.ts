import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import type { LookupFunction } from "../../lib/ssrf-guard.js";
import { normalizeUrl } from "../../lib/url-normalize.js";
import { matchRows, templatesByHost } from "../../db/read-models/match-rows.js";
import { InvalidInput, Unavailable } from "../errors.js";
import type { WarningCode } from "../signals/constants.js";
import { DEFAULT_SIGNALS, WATCH_ALERTS, WATCH_LIFETIME_MS } from "./constants.js";
import { sealSecret } from "./sealed-secret.js";
import { newWatchSecrets, signingKeyOf, signingSecretOf } from "./secrets.js";
import { checkWebhookTarget, type WebhookRules } from "./webhook-url.js";

export interface CreateWatchDeps {
  db: Kysely<Database>;
  clock: Clock;
  rules: WebhookRules;
  /** Name resolution for the subscription-time check (tests inject one). */
  lookup?: LookupFunction;
  /** WATCH_SECRET_KEY: seals the secret at rest (decision 0025); undefined keeps it as-is. */
  secretKey?: Buffer;
}

export interface CreateWatchInput {
  url: string;
  webhookUrl: string;
  signals?: readonly WarningCode[];
  /**
   * The x402 payment that bought the watch. It becomes the watch id, so one payment buys one
   * subscription, and the watch stays inert until that payment settled.
   */
  paymentId?: string;
  payer?: string | null;
}

export interface CreatedWatch {
  watchId: string;
  /** Shown once; authenticates status and unsubscribe. */
  secret: string;
  /** `whsec_` + base64 of the secret's bytes: what a receiver passes to `new Webhook(...)`. */
  signingSecret: string;
  url: string;
  webhookUrl: string;
  signals: WarningCode[];
  createdAt: Date;
  expiresAt: Date;
  alertsRemaining: number;
}

/** Validates the webhook target (DNS included) and stores a new subscription. */
export async function createWatch(deps: CreateWatchDeps, input: CreateWatchInput): Promise<CreatedWatch> {
  const target = await checkWebhookTarget(input.webhookUrl, deps.rules, deps.lookup);
  if (!target.ok) throw target.status === 400 ? new InvalidInput("webhookUrl", target.message) : new Unavailable(target.message, 5);
  const signals = [...new Set(input.signals?.length ? input.signals : DEFAULT_SIGNALS)];
  if (signals.length === 0) throw new InvalidInput("signals", "signals: name at least one signal");

  const createdAt = deps.clock.now();
  const expiresAt = new Date(createdAt.getTime() + WATCH_LIFETIME_MS);
  const secrets = newWatchSecrets();
  const id = input.paymentId ?? randomUUID();
  const values = {
    id,
    url: input.url,
    url_normalized: normalizeUrl(input.url),
    webhook_url: input.webhookUrl,
    webhook_host: new URL(input.webhookUrl).hostname.toLowerCase(),
    signals,
    secret_hash: secrets.secretHash,
    secret_sealed: sealSecret(deps.secretKey, id, secrets.secret),
    signing_key: null,
    alerts_remaining: WATCH_ALERTS,
    created_at: createdAt,
    expires_at: expiresAt,
    payer_address: input.payer ?? null,
  };
  const row = await deps.db.transaction().execute(async (trx) => {
    if (input.paymentId) {
      // A payment is only claimable again when its earlier answer was never delivered (it did
      // not settle), so a watch left by that attempt was never shown to anyone: replace it.
      await trx.deleteFrom("watches").where("id", "=", input.paymentId).execute();
    }
    const listing = await listingOf(trx, input.url);
    return (
      trx
        .insertInto("watches")
        // A matched listing's address is what the watch follows, however the URL was spelled.
        .values({ ...values, url_normalized: listing?.url_normalized ?? values.url_normalized, listing_id: listing ? Number(listing.id) : null })
        .returning("id")
        .executeTakeFirstOrThrow()
    );
  });
  return {
    watchId: row.id,
    secret: secrets.secret,
    signingSecret: signingSecretOf(signingKeyOf(secrets.secret)),
    url: input.url,
    webhookUrl: input.webhookUrl,
    signals,
    createdAt,
    expiresAt,
    alertsRemaining: WATCH_ALERTS,
  };
}

/** The listing a watched URL reaches by the one URL matcher (docs/signals.md "How a URL is matched"). */
async function listingOf(db: Kysely<Database>, url: string) {
  const query = db.selectFrom("listings as l").select(["l.id", "l.url", "l.url_normalized", "l.method", "l.is_active", "l.match_key"]);
  const byKey = async (key: string) => query.where("l.match_key", "=", key).orderBy("l.is_active", "desc").orderBy("l.last_seen_at", "desc").execute();
  return (await matchRows([url], byKey, templatesByHost(query))).get(url);
}
