import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { paymentRequiredHeader, send402, startServer, type TestServer } from "../../probes/helpers.js";

/**
 * The recorded catalogs of test/fixtures/catalogs (README there says where each shape comes
 * from), served from loopback: each catalog's pages by offset, and every listed endpoint's
 * recorded 402. Resource URLs (`https://<name>.example/...`) become `<endpoints>/<name>.example/...`.
 */
const FIXTURES = new URL("../../fixtures/catalogs/", import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, FIXTURES), "utf8");
const HOSTS = /https:\/\/([a-z0-9.-]+\.example)/g;

export const CATALOGS = {
  cdp: { path: "/platform/v2/x402/discovery/resources", pages: ["cdp/page-1.json", "cdp/page-2.json"] },
  circle: { path: "/v2/x402/discovery/resources", pages: ["circle/page-1.json", "circle/page-2.json"] },
  payai: { path: "/discovery/resources", pages: ["payai/page-1.json", "payai/page-2.json"] },
} as const;

export type CatalogName = keyof typeof CATALOGS;

/** The loopback URL a recorded resource URL is served at. */
export const loopbackUrl = (endpoints: TestServer, recorded: string) => recorded.replace(HOSTS, `${endpoints.url}/$1`);

interface RecordedChallenge {
  transport: "header" | "body";
  challenge: object;
}

/** Every recorded endpoint: a v2 challenge in PAYMENT-REQUIRED, a v1 one as the JSON body. */
export async function startRecordedEndpoints(): Promise<TestServer & { hits: string[] }> {
  const hits: string[] = [];
  let origin = "";
  const recorded = JSON.parse(read("challenges.json")) as Record<string, RecordedChallenge>;
  const server = await startServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const entry = recorded[`https://${path.slice(1)}`];
    if (!entry) return void res.writeHead(404).end();
    hits.push(`${req.method} ${path}`);
    const challenge = JSON.parse(JSON.stringify(entry.challenge).replace(HOSTS, `${origin}/$1`)) as object;
    if (entry.transport === "header") return send402(res, { header: paymentRequiredHeader(challenge), body: "{}" });
    send402(res, { body: JSON.stringify(challenge) });
  });
  origin = server.url;
  return Object.assign(server, { hits });
}

export interface RecordedCatalog extends TestServer {
  source: string;
  requests: string[];
  /** Answers the n-th request (1-based) with 429 and this Retry-After instead of its page. */
  rateLimit?: { call: number; retryAfter: string };
}

/** One catalog's recorded pages on a loopback port, its resource URLs pointing at `endpoints`. */
export async function startRecordedCatalog(name: CatalogName, endpoints: TestServer): Promise<RecordedCatalog> {
  const { path, pages } = CATALOGS[name];
  const bodies = pages.map((p) => JSON.parse(loopbackUrl(endpoints, read(p))) as { pagination: { offset: number } });
  const state = { requests: [] as string[] } as RecordedCatalog;
  const server = await startServer((req, res) => {
    req.resume();
    const u = new URL(req.url ?? "/", "http://x");
    state.requests.push(u.search);
    if (u.pathname !== path) return void res.writeHead(404).end();
    if (state.rateLimit?.call === state.requests.length) {
      return void res
        .writeHead(429, { "content-type": "application/json", "retry-after": state.rateLimit.retryAfter })
        .end('{"errorType":"rate_limit_exceeded"}');
    }
    const page = bodies.find((b) => b.pagination.offset === Number(u.searchParams.get("offset") ?? 0));
    if (!page) return void res.writeHead(400).end();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(page));
  });
  return Object.assign(state, server, { source: `${server.url}${path}` });
}
