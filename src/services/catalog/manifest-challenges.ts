import { request, type Dispatcher } from "undici";
import { parseChallenge } from "../quotes/index.js";
import { MANIFEST_CHALLENGES_PER_ORIGIN, MANIFEST_CHALLENGE_BYTES, MANIFEST_TIMEOUT_MS } from "./constants.js";
import { itemFromChallenge, type ManifestResource } from "./manifest-items.js";

/** What one resource's answer says: an item from its 402, nothing (not paid), or unknown (no answer). */
type Asked = { item: Record<string, unknown> } | "not paid" | "unknown";

async function ask(r: ManifestResource, dispatcher: Dispatcher, signal: AbortSignal | undefined): Promise<Asked> {
  const method = r.method || "GET";
  const timeout = AbortSignal.timeout(MANIFEST_TIMEOUT_MS);
  try {
    const res = await request(r.url, {
      method: method as Dispatcher.HttpMethod,
      dispatcher,
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
      headers: { accept: "application/json", ...(method === "POST" ? { "content-type": "application/json" } : {}) },
      ...(method === "POST" ? { body: "{}" } : {}),
      headersTimeout: MANIFEST_TIMEOUT_MS,
      bodyTimeout: MANIFEST_TIMEOUT_MS,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MANIFEST_CHALLENGE_BYTES) break;
      chunks.push(chunk);
    }
    if (res.statusCode !== 402) return "not paid";
    const challenge = parseChallenge(res.headers, Buffer.concat(chunks));
    // The terms as read, back in the wire shape a catalog item carries (no nulls).
    const accepts = challenge?.accepts.map(({ x402Version: _v, resourceUrl: _r, ...t }) => Object.fromEntries(Object.entries(t).filter(([, v]) => v !== null)));
    const item = challenge ? itemFromChallenge(r.url, r.method, { x402Version: challenge.x402Version, accepts }) : null;
    return item ? { item } : "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * Items for the manifest's resources that state no terms, from the 402 each answers (a few per
 * origin, one at a time, through the guarded dispatcher). A resource that answers but not with
 * a 402 is not an x402 listing. One that gives no readable answer is passed on as a bare
 * `{ resource }`: a malformed item that still names its URL, so its listing is not taken for
 * gone (docs/catalog.md, "Retirement").
 */
export async function challengeItems(resources: readonly ManifestResource[], dispatcher: Dispatcher, signal?: AbortSignal): Promise<unknown[]> {
  const items: unknown[] = [];
  for (const r of resources.filter((x) => x.item === null).slice(0, MANIFEST_CHALLENGES_PER_ORIGIN)) {
    if (signal?.aborted) break;
    const asked = await ask(r, dispatcher, signal);
    if (asked === "unknown") items.push({ resource: r.url });
    else if (asked !== "not paid") items.push(asked.item);
  }
  return items;
}
