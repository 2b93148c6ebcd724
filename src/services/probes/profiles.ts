/**
 * The request profiles probes wear (decision 0020). Each is what an ordinary x402 client sends;
 * none names the prober, so an endpoint cannot show it a quote it hides from agents. The
 * operator contact is the public /prober page, not a header.
 */
export const PROBE_PROFILES = {
  /** Node's fetch, as @x402/fetch sends it (measured: Node 20 undici). */
  fetch: { accept: "*/*", "accept-language": "*", "sec-fetch-mode": "cors", "user-agent": "node", "accept-encoding": "gzip, deflate" },
  /** @x402/axios in Node. */
  axios: { accept: "application/json, text/plain, */*", "user-agent": "axios/1.13.2", "accept-encoding": "gzip, compress, deflate, br" },
  /** A Python agent (httpx, the x402 Python SDK's client). */
  httpx: { accept: "*/*", "accept-encoding": "gzip, deflate", "user-agent": "python-httpx/0.28.1" },
  /** A browser wallet or web agent. */
  browser: {
    accept: "*/*",
    "accept-language": "en-US,en;q=0.9",
    "sec-fetch-mode": "cors",
    "sec-fetch-site": "cross-site",
    "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
    "accept-encoding": "gzip, deflate, br",
  },
} as const satisfies Record<string, Record<string, string>>;

export type ProbeProfile = keyof typeof PROBE_PROFILES;
export const DEFAULT_PROFILE: ProbeProfile = "fetch";

const OTHERS = (Object.keys(PROBE_PROFILES) as ProbeProfile[]).filter((p) => p !== DEFAULT_PROFILE);

/**
 * The profile of one probe. Probes alternate between the default and another (decision 0020), so
 * every three probes of a listing show it two profiles with overlapping spans; which other is a
 * hash of listing and instant, so it is reproducible but not guessable by slot.
 */
export function profileFor(listingId: number, at: Date, previous: string | null = null): ProbeProfile {
  if (previous !== DEFAULT_PROFILE) return DEFAULT_PROFILE;
  let h = 0x811c9dc5;
  for (const c of `${listingId}:${at.getTime()}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return OTHERS[h % OTHERS.length]!;
}
