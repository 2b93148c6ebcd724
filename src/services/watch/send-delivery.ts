import { Webhook } from "standardwebhooks";
import { request, type Dispatcher } from "undici";
import type { JsonObject } from "../../db/schema.js";
import { classifyNetworkError } from "../probes/network-error.js";
import type { NetworkErrorKind } from "../probes/types.js";
import { DELIVERY_TIMEOUT_MS, DELIVERY_USER_AGENT, RESPONSE_BODY_CAP_BYTES } from "./constants.js";
import type { AttemptOutcome, ClaimedDelivery } from "./delivery-queue.js";
import { openSecret, SecretUnavailable } from "./sealed-secret.js";
import { signingKeyOf, signingSecretOf } from "./secrets.js";
import { webhookUrlProblem } from "./webhook-url.js";

export interface Transport {
  dispatcher: Dispatcher;
  allowPrivate: boolean;
  /** Real time: receivers check webhook-timestamp against their own clock. */
  wallClock: () => Date;
  timeoutMs?: number;
  /** WATCH_SECRET_KEY, which opens the sealed secrets (decision 0025). */
  secretKey?: Buffer;
}

/** The JSON body in a fixed field order (jsonb hands keys back in its own order). */
export function webhookBody(p: JsonObject): string {
  const { type, watchId, url, signal, state, evidence, firedAt, alertsRemaining, ...rest } = p;
  return JSON.stringify({ type, watchId, url, signal, state, evidence, firedAt, alertsRemaining, ...rest });
}

/**
 * The HMAC key of a delivery: the subscription secret's bytes (docs/webhooks.md), or for a watch made
 * before decision 0025 the derived key its receiver was given. Throws SecretUnavailable.
 */
export function deliveryKey(d: Pick<ClaimedDelivery, "watchId" | "secretSealed" | "legacyKey">, secretKey: Buffer | undefined): Buffer {
  if (d.secretSealed) return signingKeyOf(openSecret(secretKey, d.watchId, d.secretSealed));
  if (d.legacyKey) return d.legacyKey;
  throw new SecretUnavailable("the watch has no secret stored");
}

/** The Standard Webhooks headers for one attempt, signed at send time with `key`. */
export function signedHeaders(d: Pick<ClaimedDelivery, "id">, key: Buffer, body: string, at: Date): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": DELIVERY_USER_AGENT,
    "webhook-id": d.id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(signingSecretOf(key)).sign(d.id, at, body),
  };
}

const NETWORK_ERRORS: Record<NetworkErrorKind, string> = {
  timeout: "timeout: no complete response within the delivery timeout",
  ssrf_blocked: "ssrf_blocked: the webhook host is not a public address",
  dns: "dns: the webhook host did not resolve",
  refused: "refused: the connection was refused or the host is unreachable",
  reset: "reset: the connection closed before a response",
  tls: "tls: the TLS handshake or certificate check failed",
  protocol: "protocol: the response was not valid HTTP",
  other: "other: the request failed",
};

/**
 * One attempt: POST through the guarded dispatcher, one deadline for connect, headers and body,
 * no redirects (undici's request never follows one; a 3xx counts as a failure), the response
 * body read up to a small cap and dropped. Any 2xx is delivered.
 */
export async function sendDelivery(t: Transport, d: ClaimedDelivery): Promise<AttemptOutcome> {
  const problem = webhookUrlProblem(d.webhookUrl, { allowPrivate: t.allowPrivate });
  if (problem) return { delivered: false, statusCode: null, error: `ssrf_blocked: webhookUrl ${problem}` };
  let key: Buffer;
  try {
    key = deliveryKey(d, t.secretKey);
  } catch (err) {
    return { delivered: false, statusCode: null, error: `signing: ${(err as Error).message}` };
  }
  const body = webhookBody(d.payload);
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, t.timeoutMs ?? DELIVERY_TIMEOUT_MS);
  try {
    const res = await request(d.webhookUrl, {
      method: "POST",
      headers: signedHeaders(d, key, body, t.wallClock()),
      body,
      dispatcher: t.dispatcher,
      signal: abort.signal,
    });
    await res.body.dump({ limit: RESPONSE_BODY_CAP_BYTES }).catch(() => undefined);
    const code = res.statusCode;
    if (code >= 200 && code < 300) return { delivered: true, statusCode: code };
    return { delivered: false, statusCode: code, error: code >= 300 && code < 400 ? `redirect not followed (HTTP ${code})` : `HTTP ${code}` };
  } catch (err) {
    return { delivered: false, statusCode: null, error: NETWORK_ERRORS[classifyNetworkError(err, timedOut)] };
  } finally {
    clearTimeout(timer);
  }
}
