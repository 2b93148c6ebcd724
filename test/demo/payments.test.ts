import { x402Client } from "@x402/core/client";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import type { Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { body } from "../helpers/http.js";
import { testUsdcAbi } from "../../src/chain/token-abi.js";
import { byKind, startFleetOnDevnet, type FleetOnDevnet } from "./helpers.js";

let env: FleetOnDevnet;

beforeAll(async () => {
  env = await startFleetOnDevnet({ slowMs: 50 });
});

afterAll(async () => {
  await env?.stop();
});

const balanceOf = (address: string) =>
  env.devnet.publicClient.readContract({ address: env.devnet.usdcAddress, abi: testUsdcAbi, functionName: "balanceOf", args: [address as Address] });

/** An unmodified third-party agent: @x402/fetch with the SDK's exact EVM client. */
function payingFetch(accountIndex: number) {
  const account = privateKeyToAccount(env.devnet.demoAccounts[accountIndex]!.privateKey);
  const client = x402Client.fromConfig({ schemes: [{ network: "eip155:84532", client: new ExactEvmScheme(account) }] });
  return { payer: account.address, fetch: wrapFetchWithPayment(fetch, client) };
}

describe("paying demo endpoints with a real x402 client", () => {
  it("a healthy GET endpoint settles on the devnet and answers plausible JSON", async () => {
    const e = byKind(env.fleet, "healthy").find((x) => x.url.endsWith("/weather/current"))!;
    const { payer, fetch: pay } = payingFetch(0);
    const [payerBefore, payeeBefore] = [await balanceOf(payer), await balanceOf(e.payTo)];
    const res = await pay(`${e.url}?city=Oslo`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ city: "Oslo", temperature_c: expect.any(Number), conditions: expect.any(String) });
    const settlement = decodePaymentResponseHeader(res.headers.get("payment-response")!);
    expect(settlement).toMatchObject({ success: true, network: "eip155:84532", payer });
    expect(payerBefore - (await balanceOf(payer))).toBe(BigInt(e.amount));
    expect((await balanceOf(e.payTo)) - payeeBefore).toBe(BigInt(e.amount));
  });

  it("a healthy POST endpoint on another provider reads its JSON body", async () => {
    const e = byKind(env.fleet, "healthy").find((x) => x.url.endsWith("/ai/summarize"))!;
    const { payer, fetch: pay } = payingFetch(1);
    const before = await balanceOf(payer);
    const text = "The launch slipped a week. Engineering found a memory leak. The fix ships Friday.";
    const res = await pay(e.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text, max_words: 20 }) });
    expect(res.status).toBe(200);
    const answer = await body(res);
    expect(answer.summary).toContain("The launch slipped a week.");
    expect(answer.input_chars).toBe(text.length);
    expect(before - (await balanceOf(payer))).toBe(BigInt(e.amount));
  });

  it("the reseller takes its markup and buys the same call from its upstream with a real payment", async () => {
    const r = byKind(env.fleet, "proxy_reseller").find((x) => x.method === "GET" && x.upstreamUrl?.endsWith("/weather/current"))!;
    const upstream = env.fleet.endpoints.find((e) => e.url === r.upstreamUrl)!;
    const { payer, fetch: pay } = payingFetch(2);
    const before = { payer: await balanceOf(payer), reseller: await balanceOf(r.payTo), upstream: await balanceOf(upstream.payTo) };
    const res = await pay(`${r.url}?city=Porto`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-relaymart-upstream")).toBe(`${upstream.url}?city=Porto`);
    expect(await res.json()).toMatchObject({ city: "Porto", source: "skycast-blend-v3" });
    expect(before.payer - (await balanceOf(payer))).toBe(BigInt(r.amount));
    expect((await balanceOf(upstream.payTo)) - before.upstream).toBe(BigInt(upstream.amount));
    expect((await balanceOf(r.payTo)) - before.reseller).toBe(BigInt(r.amount) - BigInt(upstream.amount));
  });
});
