import type { IncomingMessage, ServerResponse } from "node:http";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookoutClient, VerdictExpiredError, VerdictSignatureError, type LookoutClient, type LookoutPolicyOptions } from "@x402-lookout/client";
import type { DemoEndpoint, DemoFleet } from "../../src/demo/index.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { startProbedDemoFleet } from "../helpers/demo-fleet.js";
import { guardedAgents } from "../helpers/guarded-agents.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import { startServer, type TestServer } from "../probes/helpers.js";

/**
 * Issue 34's attacks on whose word the guard takes, paid for real on the devnet by an agent on
 * @x402/fetch 2.27 and one on @x402/axios 2.11 (its own @x402/core), each guarded by
 * lookoutPolicy: a 402 naming a resource other than the one requested (decision 0029), a mirror
 * replaying a stale verdict, a key removed from the JWKS, and a key rotation (decision 0030).
 */
const AGENT = 4;
const LOOKOUT_PAYER = 5;
const ATTACKER = 7;
const VIA = ["fetch", "axios"] as const;
let svc: PaidService;
let fleet: DemoFleet;
let healthy: DemoEndpoint;
let merchant: TestServer;
let mirror: TestServer;
/** The attacker merchant's 402: the resource it names; every path that drew a PAYMENT-SIGNATURE. */
const claim = { resource: "" };
const signedAtMerchant: string[] = [];
/**
 * A loopback mirror in front of the service: it forwards everything, and can answer preflight
 * with an answer it recorded earlier (replay) or serve the JWKS without some key ids.
 */
const m = { mode: "pass" as "pass" | "record" | "replay", recorded: new Map<string, string>(), dropKids: new Set<string>(), hits: new Map<string, number>() };

async function forward(req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks);
  const path = req.url ?? "/";
  m.hits.set(path, (m.hits.get(path) ?? 0) + 1);
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !["host", "connection", "content-length"].includes(k))) as Record<
    string,
    string
  >;
  const upstream = await fetch(`${svc.url}${path}`, { method: req.method, headers, body: body.length > 0 ? body : undefined });
  let text = await upstream.text();
  if (path === "/.well-known/jwks.json" && m.dropKids.size > 0) {
    const jwks = JSON.parse(text) as { keys: Array<{ kid: string }> };
    text = JSON.stringify({ keys: jwks.keys.filter((k) => !m.dropKids.has(k.kid)) });
  }
  if (path === "/api/v1/preflight" && upstream.status === 200) {
    const asked = (JSON.parse(body.toString()) as { url: string }).url;
    if (m.mode === "record") m.recorded.set(asked, text);
    if (m.mode === "replay" && m.recorded.has(asked)) text = m.recorded.get(asked)!;
  }
  const out: Record<string, string> = {};
  upstream.headers.forEach((v, k) => {
    if (!["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive"].includes(k)) out[k] = v;
  });
  res.writeHead(upstream.status, out).end(text);
}

function attackerMerchant(req: IncomingMessage, res: ServerResponse) {
  req.resume();
  if (req.headers["payment-signature"]) signedAtMerchant.push(req.url ?? "/");
  const entry = {
    scheme: "exact",
    network: svc.devnet.network,
    asset: svc.devnet.usdcAddress,
    payTo: privateKeyToAccount(svc.devnet.demoAccounts[ATTACKER]!.privateKey).address,
    amount: "999999",
    maxTimeoutSeconds: 60,
    extra: { name: "USDC", version: "2" },
  };
  const header = Buffer.from(JSON.stringify({ x402Version: 2, resource: { url: claim.resource }, accepts: [entry] })).toString("base64");
  res.writeHead(402, { "payment-required": header, "content-type": "application/json" }).end("{}");
}

beforeAll(async () => {
  svc = await startPaidService({ routes: productRoutes, env: { ALLOW_PRIVATE_TARGETS: "true" } });
  fleet = await startProbedDemoFleet(svc.ctx, svc.devnet);
  healthy = fleet.endpoints.find((e) => e.kind === "healthy" && e.url.endsWith("/weather/current"))!;
  merchant = await startServer(attackerMerchant);
  mirror = await startServer((req, res) => void forward(req, res).catch((err: unknown) => res.writeHead(502).end(String(err))));
}, 180_000);
afterAll(async () => {
  await mirror?.close();
  await merchant?.close();
  await fleet?.stop();
  await svc?.close();
});

/** A Lookout client on the service's clock, through the mirror or straight to the service. */
const lookoutAt = (base: string) =>
  createLookoutClient({
    baseUrl: base,
    signer: privateKeyToAccount(svc.devnet.demoAccounts[LOOKOUT_PAYER]!.privateKey),
    now: () => svc.ctx.clock.now().getTime(),
  });

/** The two official clients, guarded (test/helpers/guarded-agents.ts); `pay[via](url)` pays (its status) or throws. */
function agents(lookout: LookoutClient, options: Partial<LookoutPolicyOptions> = {}) {
  const { decisions, viaFetch, viaAxios } = guardedAgents(svc, lookout, AGENT, options);
  const pay = {
    fetch: async (url: string) => (await viaFetch(url)).status,
    axios: async (url: string) => (await viaAxios(url)).status,
  };
  return { decisions, pay };
}

const balance = () => svc.balanceOf(svc.payer(AGENT));
const kidOf = (jws: string) => (JSON.parse(Buffer.from(jws.split(".")[0]!, "base64url").toString()) as { kid: string }).kid;

describe("the 402 names another resource than the one requested", () => {
  it("self-referential (a path under the Lookout base URL) and foreign (a healthy endpoint): both clients refuse, nothing signed, balance unchanged", async () => {
    const lookout = lookoutAt(svc.url);
    const before = await balance();
    for (const named of [`${svc.url}/api/v1/preflight`, healthy.url]) {
      claim.resource = named;
      for (const via of VIA) {
        const { pay, decisions } = agents(lookout, { failMode: "open", unknown: "allow" });
        const err = (await pay[via](`${merchant.url}/forecast`).catch((e: unknown) => e)) as Error;
        expect(err, `${via} ${named}`).toBeInstanceOf(Error);
        expect(err.message, via).toMatch(/names another resource/);
        // Refused before anything is asked: no verdict, the claimed resource's included, is borrowed.
        expect(decisions, via).toMatchObject([{ url: `${merchant.url}/forecast`, decision: "block", reasons: ["resource_mismatch"] }]);
        expect(decisions[0]!.report, via).toBeUndefined();
      }
    }
    expect(signedAtMerchant).toEqual([]);
    expect(await balance()).toBe(before);
  });
});

describe("a verdict is judged at the agent's clock", () => {
  it("a mirror replaying a validly signed pay verdict 6 minutes old: asked again, still stale, refused by both clients; healthy is not paid", async () => {
    const lookout = lookoutAt(mirror.url);
    m.mode = "record";
    for (const via of VIA) expect(await agents(lookout).pay[via](healthy.url), via).toBe(200);
    expect(JSON.parse(m.recorded.get(healthy.url)!)).toMatchObject({ ok: true, recommended_action: "pay" });
    svc.ctx.clock.advance(6 * 60_000);
    m.mode = "replay";
    const before = await balance();
    for (const via of VIA) {
      const asked = m.hits.get("/api/v1/preflight") ?? 0;
      const { pay, decisions } = agents(lookout);
      const err = (await pay[via](healthy.url).catch((e: unknown) => e)) as Error;
      expect(err, via).toBeInstanceOf(Error);
      expect(err.message, via).toMatch(/verdict expired/);
      expect(decisions, via).toMatchObject([{ url: healthy.url, decision: "block", reasons: ["stale_verdict"], mode: "failed_closed" }]);
      expect(decisions[0]!.error, via).toBeInstanceOf(VerdictExpiredError);
      // Each ask is a 402 and a paid request: two asks.
      expect((m.hits.get("/api/v1/preflight") ?? 0) - asked, via).toBe(4);
    }
    expect(await balance()).toBe(before);
    m.mode = "pass";
  });

  it("a key dropped from the JWKS: trusted until the next fetch (at most 5 minutes), then its verdicts are refused by both clients", async () => {
    const lookout = lookoutAt(mirror.url);
    const first = await lookout.preflightTrial({ url: healthy.url });
    const kid = kidOf(first.signature);
    // The key set the agent fetches no longer holds the kid (as after a revocation) while verdicts signed with it keep coming (as from a leaked key).
    m.dropKids.add(kid);
    svc.ctx.clock.advance(60_000);
    expect(kidOf((await lookout.preflightTrial({ url: healthy.url })).signature)).toBe(kid);
    svc.ctx.clock.advance(4 * 60_000 + 1000);
    const before = await balance();
    for (const via of VIA) {
      const { pay, decisions } = agents(lookout, { failMode: "open" });
      await expect(pay[via](healthy.url), via).rejects.toThrow(/signature does not verify/);
      expect(decisions, via).toMatchObject([{ decision: "block", reasons: ["check_failed"] }]);
      expect(decisions[0]!.error, via).toBeInstanceOf(VerdictSignatureError);
      expect(decisions[0]!.error, via).toMatchObject({ code: "bad_signature" });
    }
    expect(await balance()).toBe(before);
    m.dropKids.clear();
  });

  it("a key rotation never fails a failMode open guard: the new kid is fetched and both clients pay healthy", async () => {
    const lookout = lookoutAt(mirror.url);
    const oldKid = kidOf((await lookout.preflightTrial({ url: healthy.url })).signature);
    const jwksFetches = m.hits.get("/.well-known/jwks.json") ?? 0;
    await svc.ctx.db.db.updateTable("signing_keys").set({ retired_at: svc.ctx.clock.now() }).where("kid", "=", oldKid).execute();
    // Every process reads the active key again within a minute; the first signature after it starts the read.
    svc.ctx.clock.advance(61_000);
    await lookoutAt(svc.url).preflightTrial({ url: fleet.endpoints.find((e) => e.kind === "healthy" && e !== healthy)!.url });
    const published = async () => ((await (await fetch(`${svc.url}/.well-known/jwks.json`)).json()) as { keys: unknown[] }).keys.length;
    for (let i = 0; i < 50 && (await published()) < 2; i++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 100));
    const before = await balance();
    for (const via of VIA) {
      const { pay, decisions } = agents(lookout, { failMode: "open" });
      expect(await pay[via](healthy.url), via).toBe(200);
      expect(decisions, via).toMatchObject([{ decision: "allow", reasons: [] }]);
      expect(kidOf(decisions[0]!.signature!), via).not.toBe(oldKid);
    }
    expect(before - (await balance())).toBe(2n * BigInt(healthy.amount));
    // One fetch for the new kid; the old one stays published for its grace.
    expect((m.hits.get("/.well-known/jwks.json") ?? 0) - jwksFetches).toBe(1);
  });
});
