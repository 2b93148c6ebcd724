import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anvilAccount } from "../../src/chain/devnet-accounts.js";
import { certificateProofMessage } from "@x402-lookout/contracts/verified/proof";
import { issueCertificate, type IssueInput } from "../../src/services/certificates/issue.js";
import { viewCertificate } from "../../src/services/certificates/live-state.js";
import { ClaimRefused } from "../../src/services/errors.js";
import { DAY, HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";

// Decision 0019 on the service: who may have a certificate, and under which name.
let ctx: TestContext;
const account = (i: number) => privateKeyToAccount(anvilAccount(i).privateKey);
const [OWNER, COINBASE, STRANGER] = [account(11), account(12), account(13)];
const deps = () => ({ db: ctx.db.db, clock: ctx.clock, publicBaseUrl: ctx.config.publicBaseUrl });
const issue = (input: IssueInput) => issueCertificate(deps(), input);
const QUOTES = "https://quote.example/v1/*";

async function refusal(input: IssueInput): Promise<ClaimRefused> {
  const outcome = await issue(input).catch((e: unknown) => e);
  if (outcome instanceof ClaimRefused) return outcome;
  throw new Error(`expected a ClaimRefused, got ${JSON.stringify(outcome)}`);
}

/** The signer's proof for this request, signed `ago` ms before the clock's now (negative: later). */
async function proof(signer: PrivateKeyAccount, req: { url: string; name?: string; issuer?: string }, ago = MINUTE) {
  const issuedAt = new Date(ctx.clock.now().getTime() - ago).toISOString();
  const message = certificateProofMessage({ issuer: req.issuer ?? ctx.config.publicBaseUrl, url: req.url, name: req.name, issuedAt });
  return { signature: await signer.signMessage({ message }), issuedAt };
}

beforeAll(async () => {
  ctx = await createTestContext();
  const now = ctx.clock.now().getTime();
  const week = () => series(7 * DAY, HOUR, () => ({ price: "0.002", latency: 120 }));
  const seed = async (url: string, service: string, payTo: string | null, firstSeenAt = new Date(now - 10 * DAY)) => {
    const id = await seedListing(ctx, { url, service, payTo, price: "0.002", firstSeenAt });
    await seedProbes(ctx, id, week());
  };
  // Coinbase's listing is the oldest; Quoteline's payTo is OWNER (hex as the catalog stores it).
  await seed("https://cdp.example/x402/facilitator", "Coinbase Developer Platform", COINBASE.address.toLowerCase(), new Date(now - 60 * DAY));
  await seed("https://quote.example/v1/spot", "Quoteline", OWNER.address.toLowerCase());
  await seed("https://quote.example/v1/history", "Quoteline", OWNER.address.toLowerCase());
  // A stranger listed under Quoteline's name yesterday: the name stays Quoteline's.
  await seed("https://fake.example/v1/spot", "Quoteline", STRANGER.address.toLowerCase(), new Date(now - DAY));
  await seed("https://mixed.example/a", "Mixed", OWNER.address.toLowerCase());
  await seed("https://mixed.example/b", "Mixed", COINBASE.address.toLowerCase());
  await seed("https://nopay.example/a", "No PayTo", null);
  await seed("https://sol.example/a", "Solana Feed", "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV");
  await recompute(ctx);
});
afterAll(() => ctx?.close());

describe("proof of control", () => {
  it("a payment from the payTo proves it (addresses compare case-insensitively); the certificate names payTo and host", async () => {
    const r = await issue({ url: QUOTES, name: "Quoteline", payer: OWNER.address });
    if (!r.verified) throw new Error(JSON.stringify(r.failed));
    expect(r.certificate).toMatchObject({ payTo: OWNER.address, host: "quote.example", provenBy: "payment", name: "Quoteline", listings_covered: 2 });
    const stored = await ctx.db.db.selectFrom("certificates").selectAll().where("cert_id", "=", r.certificate.certId).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ pay_to: OWNER.address, host: "quote.example", proven_by: "payment", payer_address: OWNER.address });
  });

  it("a payment from another wallet without a proof is refused with payto_not_proven, naming the payTo and the payer; nothing is stored", async () => {
    const before = await ctx.db.db.selectFrom("certificates").select("cert_id").execute();
    const e = await refusal({ url: QUOTES, name: "Quoteline", payer: STRANGER.address });
    expect(e.code).toBe("payto_not_proven");
    expect(e.details).toMatchObject({ url: QUOTES, pay_to: [OWNER.address], payer: STRANGER.address });
    expect(await ctx.db.db.selectFrom("certificates").select("cert_id").execute()).toHaveLength(before.length);
  });

  it("the payTo's signature proves it whoever paid, and is the only way without an x402 payer", async () => {
    for (const payer of [STRANGER.address, null]) {
      const r = await issue({ url: QUOTES, name: "Quoteline", payer, proof: await proof(OWNER, { url: QUOTES, name: "Quoteline" }) });
      expect(r.verified && r.certificate, String(payer)).toMatchObject({ payTo: OWNER.address, provenBy: "signature" });
    }
    // A proof 10 minutes old still holds; without a name the message says null.
    const r = await issue({ url: QUOTES, payer: null, proof: await proof(OWNER, { url: QUOTES }, 10 * MINUTE) });
    expect(r.verified && r.certificate.name).toBe("Quoteline");
  });

  it.each([
    ["signed by another key", { signer: STRANGER }, "proof_invalid"],
    ["over another name", { signed: { name: "Quoteline" }, name: "Quoteline Pro" }, "proof_invalid"],
    ["over another url", { signed: { url: "https://quote.example/v1/spot" } }, "proof_invalid"],
    ["for another issuer", { signed: { issuer: "https://lookout.evil" } }, "proof_invalid"],
    ["older than 10 minutes", { ago: 10 * MINUTE + 1000 }, "proof_stale"],
    ["in the future", { ago: -2 * MINUTE }, "proof_stale"],
  ] as const)("a proof %s is refused (%s)", async (_, c: { signer?: PrivateKeyAccount; signed?: object; name?: string; ago?: number }, code) => {
    const name = c.name ?? "Quoteline";
    const p = await proof(c.signer ?? OWNER, { url: QUOTES, name, ...c.signed }, c.ago);
    const e = await refusal({ url: QUOTES, name, payer: STRANGER.address, proof: p });
    expect(e.code).toBe(code);
    expect(e.details).toMatchObject({ pay_to: [OWNER.address], payer: STRANGER.address });
    if (code === "proof_invalid")
      expect(e.details.proof_message).toBe(certificateProofMessage({ issuer: ctx.config.publicBaseUrl, url: QUOTES, name, issuedAt: p.issuedAt }));
    if (c.signer) expect(e.details.proof_signer).toBe(STRANGER.address);
  });

  it.each([
    ["listings paid to two payTos", "https://mixed.example/*", "payto_ambiguous"],
    ["a listing without a payTo", "https://nopay.example/a", "payto_missing"],
    ["a payTo that is not an EVM address", "https://sol.example/a", "payto_unsupported"],
  ])("%s cannot be proven (%s)", async (_, url, code) => {
    expect((await refusal({ url, payer: OWNER.address, proof: await proof(OWNER, { url }) })).code).toBe(code);
  });
});

describe("the certificate's name", () => {
  it.each([
    ["names a well-known brand another provider's service names", "Coinbase Official x402 Gateway", "brand"],
    ["is another provider's service name, in look-alike letters", "Cоinbase Develоper Platfоrm", "same_name"],
  ])("is refused when it %s", async (_, name, rule) => {
    const e = await refusal({ url: QUOTES, name, payer: OWNER.address });
    expect(e.code).toBe("name_imitates");
    expect(e.details).toMatchObject({ name, catalog_name: "Quoteline", imitates: [{ service: "Coinbase Developer Platform", rule }] });
  });

  it("belongs to whoever listed it first: the stranger's own catalog name is refused, the brand's holder may use the brand", async () => {
    const e = await refusal({ url: "https://fake.example/v1/spot", payer: STRANGER.address });
    expect(e).toMatchObject({
      code: "name_imitates",
      details: { name: null, catalog_name: "Quoteline", imitates: [{ service: "Quoteline", rule: "same_name" }] },
    });
    const r = await issue({ url: "https://cdp.example/x402/facilitator", name: "Coinbase x402 Facilitator", payer: COINBASE.address });
    expect(r.verified && r.certificate.name).toBe("Coinbase x402 Facilitator");
  });
});

describe("a certificate issued before proof of control was required", () => {
  it("shows as lapsed, with its host read from its url", async () => {
    const r = await issue({ url: QUOTES, payer: OWNER.address });
    if (!r.verified) throw new Error("expected verified");
    await ctx.db.db.updateTable("certificates").set({ pay_to: null, host: null, proven_by: null }).where("cert_id", "=", r.certificate.certId).execute();
    const v = (await viewCertificate(deps(), r.certificate.certId))!;
    expect(v).toMatchObject({ state: "lapsed", payTo: null, provenBy: null, host: "quote.example" });
    expect(v.lapsedBecause).toEqual(["issued without proof of control of the endpoints' payTo; the provider must request a new certificate"]);
  });
});
