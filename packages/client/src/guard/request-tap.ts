import { canonicalJson } from "@x402-lookout/contracts/quote";

/** The request an agent actually sent, as its transport saw it. */
export interface TappedRequest {
  url: string;
  method: string;
}

const TTL_MS = 60_000;
const MAX_CHALLENGES = 256;

/**
 * The requests that drew each 402, keyed by the challenge they drew. An x402Client hook sees only
 * the challenge, and the challenge names a resource its sender chose: the tap lets the policy
 * judge the request the agent made instead (decision 0029).
 */
export class RequestTap {
  private readonly byChallenge = new Map<string, { requests: TappedRequest[]; at: number }>();
  constructor(private readonly now: () => number = Date.now) {}

  record(challenge: unknown, request: TappedRequest): void {
    const key = canonicalJson(challenge);
    const t = this.now();
    for (const [k, v] of this.byChallenge) if (t - v.at > TTL_MS || this.byChallenge.size >= MAX_CHALLENGES) this.byChallenge.delete(k);
    const seen = this.byChallenge.get(key);
    this.byChallenge.set(key, { requests: [...(seen && t - seen.at <= TTL_MS ? seen.requests : []), request], at: t });
  }

  /** The distinct requests that drew this challenge within the last minute; several mean the challenge cannot say whose it is. */
  requestsFor(paymentRequired: unknown): TappedRequest[] {
    const seen = this.byChallenge.get(canonicalJson(paymentRequired));
    if (!seen || this.now() - seen.at > TTL_MS) return [];
    return [...new Map(seen.requests.map((r) => [`${r.method} ${r.url}`, r])).values()];
  }
}

/** The challenge of a 402 as the x402 SDK reads it: the v2 header decoded, else a v1 JSON body. */
export function challengeOf(header: string | null | undefined, body: unknown): unknown {
  if (header) {
    try {
      return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(header), (c) => c.charCodeAt(0))));
    } catch {
      return null;
    }
  }
  const parsed = typeof body === "string" ? safeJson(body) : body;
  return typeof parsed === "object" && parsed !== null && (parsed as { x402Version?: unknown }).x402Version === 1 ? parsed : null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A fetch for @x402/fetch to send through (`wrapFetchWithPayment(policy.fetch(fetch), client)`): each 402 is recorded with its request. */
export function tapFetch(tap: RequestTap, inner: typeof fetch, onAnswer?: (request: Request, response: Response) => void): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await inner(request);
    onAnswer?.(request, response);
    if (response.status === 402) {
      const header = response.headers.get("payment-required");
      const challenge = challengeOf(header, header ? null : await response.clone().text());
      if (challenge) tap.record(challenge, { url: response.url || request.url, method: request.method.toUpperCase() });
    }
    return response;
  };
}

/** The part of an axios instance the tap needs (no axios dependency). */
export interface AxiosLike {
  getUri(config?: object): string;
  interceptors: { response: { use(onFulfilled: undefined, onRejected: (error: unknown) => unknown): unknown } };
}

/** Records each 402 an axios instance receives; call before wrapAxiosWithPayment, so it runs first. */
export function tapAxios(tap: RequestTap, instance: AxiosLike): void {
  instance.interceptors.response.use(undefined, (error) => {
    const e = error as { config?: { method?: string }; response?: { status?: number; headers?: Record<string, unknown>; data?: unknown } };
    if (e.response?.status === 402 && e.config) {
      const header = e.response.headers?.["payment-required"];
      const challenge = challengeOf(typeof header === "string" ? header : null, e.response.data);
      if (challenge) tap.record(challenge, { url: instance.getUri(e.config), method: (e.config.method ?? "get").toUpperCase() });
    }
    return Promise.reject(error);
  });
}
