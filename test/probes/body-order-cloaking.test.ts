import type { IncomingMessage, ServerResponse } from "node:http";
import { isDeepStrictEqual } from "node:util";
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookoutClient, lookoutPolicy, type GuardDecision, type LookoutClient } from "@x402-lookout/client";
import { productRoutes } from "../../src/http/routes/index.js";
import { recomputeSnapshots, recomputeVerdicts } from "../../src/services/evidence/index.js";
import { DAY } from "../../src/services/signals/constants.js";
import { startProber, type ProberHandle } from "../helpers/start-prober.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import { insertListings, startServer, type TestServer } from "./helpers.js";

/**
 * Issue 34 item 5: endpoints that quote cheap only for the body or the header order the prober
 * used to send (`{}`, content-type last), probed by the real prober over several instants, and
 * an agent on the real @x402/fetch guarded by lookoutPolicy refused payment to one on the devnet.
 */
const INTERVAL_MS = 600_000;
const AGENT = 4;
const LOOKOUT_PAYER = 5;
const MERCHANT = 7;
const CHEAP = "1000";
const DEAR = "500000";
const EXAMPLE = { text: "hello", to: "de" };
let svc: PaidService;
let merchant: TestServer;
let prober: ProberHandle;
let lookout: LookoutClient;
const signed: string[] = [];

/** Each path's quote as a function of the request as it arrived: raw header names in order and body. */
const QUOTES: Record<string, (names: string[], body: string) => string> = {
  "/body": (_, body) => (body === "{}" ? CHEAP : DEAR),
  "/agent-body": (_, body) => (body === "{}" ? CHEAP : DEAR),
  "/order": (names) =>
    names
      .filter((n) => n.toLowerCase() !== "content-length")
      .at(-1)
      ?.toLowerCase() === "content-type"
      ? CHEAP
      : DEAR,
  "/example": (_, body) => (body !== "" && isDeepStrictEqual(JSON.parse(body), EXAMPLE) ? CHEAP : DEAR),
  "/honest": () => CHEAP,
};

function challenge(path: string, amount: string) {
  const entry = {
    scheme: "exact",
    network: svc.devnet.network,
    asset: svc.devnet.usdcAddress,
    payTo: privateKeyToAccount(svc.devnet.demoAccounts[MERCHANT]!.privateKey).address,
    amount,
    maxTimeoutSeconds: 60,
    extra: { name: "USDC", version: "2" },
  };
  return Buffer.from(JSON.stringify({ x402Version: 2, resource: { url: `${merchant.url}${path}` }, accepts: [entry] })).toString("base64");
}

function serve(req: IncomingMessage, res: ServerResponse) {
  let body = "";
  req.on("data", (c: Buffer) => (body += c.toString()));
  req.on("end", () => {
    const quote = QUOTES[req.url ?? "/"];
    if (!quote) return res.writeHead(404).end();
    if (req.headers["payment-signature"]) signed.push(req.url ?? "/");
    const names = req.rawHeaders.filter((_, i) => i % 2 === 0);
    res.writeHead(402, { "payment-required": challenge(req.url ?? "/", quote(names, body)), "content-type": "application/json" }).end("{}");
  });
}

beforeAll(async () => {
  svc = await startPaidService({ routes: productRoutes, env: { ALLOW_PRIVATE_TARGETS: "true" } });
  merchant = await startServer(serve);
  prober = startProber(svc.ctx, { tickMs: 3_600_000, runAtStart: false, intervalSeconds: INTERVAL_MS / 1000 });
  const signer = privateKeyToAccount(svc.devnet.demoAccounts[LOOKOUT_PAYER]!.privateKey);
  lookout = createLookoutClient({ baseUrl: svc.url, signer, now: () => svc.ctx.clock.now().getTime() });
}, 180_000);
afterAll(async () => {
  await prober?.stop();
  await merchant?.close();
  await svc?.close();
});

/** A POST listing ten days old at `price` (atomic) to the merchant; `input` is its catalog item's Bazaar input. */
async function list(path: string, input?: Record<string, unknown>, price = CHEAP): Promise<number> {
  const { db } = svc.ctx.db;
  const seed = { url: `${merchant.url}${path}`, method: "POST", network: svc.devnet.network, asset: svc.devnet.usdcAddress, nextProbeAt: svc.ctx.clock.now() };
  const [id] = await insertListings(db, [seed], new Date(svc.ctx.clock.now().getTime() - 10 * DAY));
  const payTo = privateKeyToAccount(svc.devnet.demoAccounts[MERCHANT]!.privateKey).address;
  const raw = input ? JSON.stringify({ resource: seed.url, extensions: { bazaar: { info: { input } } } }) : "{}";
  await db
    .updateTable("listings")
    .set({ pay_to: payTo, price_atomic: price, price_usdc: String(Number(price) / 1e6), currency: "USDC", raw })
    .where("id", "=", id!)
    .execute();
  return id!;
}

/** Probes the listing at its successive slots until `until` holds of the profiles worn (at most `max` probes). */
async function probe(id: number, until: (profiles: string[]) => boolean, max = 30): Promise<string[]> {
  const { db } = svc.ctx.db;
  let worn: string[] = [];
  for (let i = 0; i < max && !until(worn); i++) {
    const due = await db.selectFrom("listings").select("next_probe_at").where("id", "=", id).executeTakeFirstOrThrow();
    svc.ctx.clock.set(due.next_probe_at);
    expect((await prober.runNow()).done).toBeGreaterThanOrEqual(1);
    worn = (await db.selectFrom("probes").select("profile").where("listing_id", "=", id).orderBy("probed_at").execute()).map((p) => p.profile ?? "");
  }
  await recomputeSnapshots(svc.ctx);
  await recomputeVerdicts(svc.ctx.db, svc.ctx.clock.now());
  return worn;
}

const preflight = (path: string) => svc.ctx.services.reports.preflight(`${merchant.url}${path}`);
const atLeast = (n: number) => (worn: string[]) => worn.length >= n;
/** Whether one of `profiles` was worn between two default probes (the spans overlap: decision 0020). */
const between = (worn: string[], profiles: string[]) => worn.some((p, i) => profiles.includes(p) && worn.slice(i + 1).includes("fetch"));
const bodyless = (worn: string[]) => between(worn, ["axios", "browser"]);

describe("cloakers of the body and the header order, probed by the real prober", () => {
  it("a quote cheap only for the body {} reads cloaking once axios or the browser (no body) was among the profiles", async () => {
    const worn = await probe(await list("/body"), bodyless);
    expect(bodyless(worn)).toBe(true);
    const r = await preflight("/body");
    expect(r.reason_codes).toContain("cloaking");
    expect(r).toMatchObject({ ok: false, recommended_action: "skip" });
  });

  it("a quote cheap only when content-type is the last header reads cloaking once httpx (which sends it last) was among the profiles", async () => {
    const worn = await probe(await list("/order"), (w) => between(w, ["httpx"]));
    expect(between(worn, ["httpx"])).toBe(true);
    const r = await preflight("/order");
    expect(r.reason_codes).toContain("cloaking");
    expect(r.ok).toBe(false);
  });

  it("a quote cheap only for the catalog's own input example reads cloaking: only the default sends it", async () => {
    await probe(await list("/example", { type: "http", method: "POST", bodyType: "json", body: EXAMPLE }), atLeast(6));
    const r = await preflight("/example");
    expect(r.reason_codes).toContain("cloaking");
    expect(r.ok).toBe(false);
  });

  it("an endpoint that quotes every body and order alike is no cloaker: pay", async () => {
    const worn = await probe(await list("/honest", { type: "http", method: "POST", bodyType: "json", body: EXAMPLE }), (w) => new Set(w).size >= 3);
    expect(new Set(worn).size).toBeGreaterThanOrEqual(3);
    const r = await preflight("/honest");
    expect(r.reason_codes).not.toContain("cloaking");
    expect(r).toMatchObject({ ok: true, recommended_action: "pay" });
  });
});

describe("a guarded agent and the body cloaker", () => {
  it("@x402/fetch with lookoutPolicy signs nothing for the cloaker's quote once Lookout reads cloaking, though the quote is the listed price", async () => {
    // Listed at the price agents are quoted, the newest probe a cheap one: cloaking is the one critical code.
    const cheap = (p: string | undefined) => p === "fetch" || p === "httpx";
    const worn = await probe(await list("/agent-body", undefined, DEAR), (w) => w.length >= 4 && bodyless(w) && cheap(w.at(-1)));
    expect(cheap(worn.at(-1)) && bodyless(worn)).toBe(true);
    const decisions: GuardDecision[] = [];
    const now = () => svc.ctx.clock.now().getTime();
    const policy = lookoutPolicy({ lookout, onDecision: (d) => decisions.push(d), now });
    const scheme = new ExactEvmScheme(privateKeyToAccount(svc.devnet.demoAccounts[AGENT]!.privateKey));
    const client = x402Client.fromConfig({ schemes: [{ network: svc.devnet.network, client: scheme }] }).onBeforePaymentCreation(policy);
    const pay = wrapFetchWithPayment(policy.fetch(fetch), client);
    const before = await svc.balanceOf(svc.payer(AGENT));
    const init = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text: "a real question" }) };
    const err = (await pay(`${merchant.url}/agent-body`, init).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(decisions).toMatchObject([{ stage: "quote", decision: "block", reasons: ["not_ok", "action"] }]);
    const codes = decisions[0]!.report!.reason_codes;
    expect(codes).toContain("cloaking");
    expect(codes.filter((w) => !["cloaking", "price_mismatch"].includes(w))).toEqual([]);
    // Both are additions: the spec's warnings say nothing, reason_codes and the action say skip.
    expect(decisions[0]!.report!.warnings).toEqual([]);
    expect(signed).not.toContain("/agent-body");
    expect(await svc.balanceOf(svc.payer(AGENT))).toBe(before);
  });
});
