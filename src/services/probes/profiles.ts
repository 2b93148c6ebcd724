/**
 * The request profiles probes wear (decision 0020). Each is what an ordinary x402 client sends,
 * header values and the order and spelling it sends them in; none names the prober, so an
 * endpoint cannot show it a quote it hides from agents. The operator contact is the public
 * /prober page, not a header.
 */
export const PROBE_PROFILES = {
  /** Node's fetch, as @x402/fetch sends it (measured: Node 20 undici). */
  fetch: { accept: "*/*", "accept-language": "*", "sec-fetch-mode": "cors", "user-agent": "node", "accept-encoding": "gzip, deflate" },
  /** @x402/axios in Node (measured: axios 1.13.2). */
  axios: { accept: "application/json, text/plain, */*", "user-agent": "axios/1.13.2", "accept-encoding": "gzip, compress, deflate, br" },
  /** A Python agent (httpx, the x402 Python SDK's client). */
  httpx: { accept: "*/*", "accept-encoding": "gzip, deflate", "user-agent": "python-httpx/0.28.1" },
  /** A browser wallet or web agent: Chrome's fetch() from a page on another site. */
  browser: {
    "sec-ch-ua-platform": '"Windows"',
    "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
    "sec-ch-ua": '"Chromium";v="142", "Google Chrome";v="142", "Not_A Brand";v="99"',
    "sec-ch-ua-mobile": "?0",
    accept: "*/*",
    "sec-fetch-site": "cross-site",
    "sec-fetch-mode": "cors",
    "sec-fetch-dest": "empty",
    "accept-encoding": "gzip, deflate, br",
    "accept-language": "en-US,en;q=0.9",
  },
} as const satisfies Record<string, Record<string, string>>;

export type ProbeProfile = keyof typeof PROBE_PROFILES;
export const DEFAULT_PROFILE: ProbeProfile = "fetch";

/**
 * Each client's header names on the wire, in its order and spelling (docs/probing.md). fetch
 * and axios are measured on loopback; httpx (defaults, then h11's body headers) and Chrome
 * from their known behaviour. The HTTP client keeps this order; undici itself writes host and
 * connection first and content-length last, for every profile alike.
 */
const WIRE_ORDER: Record<ProbeProfile, readonly string[]> = {
  fetch: ["Content-Type", "accept", "accept-language", "sec-fetch-mode", "user-agent", "accept-encoding"],
  axios: ["Accept", "Content-Type", "User-Agent", "Accept-Encoding"],
  httpx: ["Accept", "Accept-Encoding", "User-Agent", "Content-Type"],
  browser: [
    ...["sec-ch-ua-platform", "User-Agent", "sec-ch-ua", "Content-Type", "sec-ch-ua-mobile", "Accept"],
    ...["Sec-Fetch-Site", "Sec-Fetch-Mode", "Sec-Fetch-Dest", "Accept-Encoding", "Accept-Language"],
  ],
};

export type WireHeaders = Array<[name: string, value: string]>;

/** A profile's headers in its wire order; content-type only when the request carries one. */
export function profileHeaders(profile: ProbeProfile, contentType: string | null = null): WireHeaders {
  const values: Record<string, string> = PROBE_PROFILES[profile];
  const out: WireHeaders = [];
  for (const name of WIRE_ORDER[profile]) {
    const value = name.toLowerCase() === "content-type" ? contentType : values[name.toLowerCase()];
    if (value !== null && value !== undefined) out.push([name, value]);
  }
  return out;
}

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
