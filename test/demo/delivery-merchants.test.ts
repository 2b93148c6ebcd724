import { x402Client } from "@x402/core/client";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testUsdcAbi } from "../../src/chain/token-abi.js";
import type { DemoEndpoint } from "../../src/demo/index.js";
import { challengeOf, nakedEndpoint, one, readCatalog, startFleetOnDevnet, type FleetOnDevnet } from "./helpers.js";

let env: FleetOnDevnet;

beforeAll(async () => {
  env = await startFleetOnDevnet();
});

afterAll(async () => {
  await env?.stop();
});

const DELIVERY_KINDS = ["paid_ok", "paid_500", "paid_empty", "paid_canned", "paid_off_schema", "paid_401"] as const;
const ajv = new Ajv2020({ strict: false, allErrors: true });

const balanceOf = (address: string) =>
  env.devnet.publicClient.readContract({ address: env.devnet.usdcAddress, abi: testUsdcAbi, functionName: "balanceOf", args: [address as Address] });

/** What the listing's own 402 declares: its query parameter, the values it enumerates, its output schema. */
async function declared(e: DemoEndpoint) {
  const bazaar = (challengeOf(await nakedEndpoint(e)).extensions as any).bazaar;
  const query = bazaar.schema.properties.input.properties.queryParams;
  const param = query.required[0] as string;
  return { param, values: query.properties[param].enum as string[], output: bazaar.schema.properties.output.properties.example };
}

/**
 * Pays `e` once with an unmodified agent (@x402/fetch, demo account `account`) and checks the
 * money moved on chain: the payer down and the merchant up by the listed amount, a settlement receipt.
 */
async function payOnce(e: DemoEndpoint, account: number, query: string) {
  const wallet = privateKeyToAccount(env.devnet.demoAccounts[account]!.privateKey);
  const pay = wrapFetchWithPayment(fetch, x402Client.fromConfig({ schemes: [{ network: env.devnet.network, client: new ExactEvmScheme(wallet) }] }));
  const [payer, payee] = [await balanceOf(wallet.address), await balanceOf(e.payTo)];
  const res = await pay(`${e.url}?${query}`);
  const text = await res.text();
  expect(payer - (await balanceOf(wallet.address)), e.kind).toBe(BigInt(e.amount));
  expect((await balanceOf(e.payTo)) - payee, e.kind).toBe(BigInt(e.amount));
  const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
  expect(receipt).toMatchObject({ success: true, network: env.devnet.network, payer: wallet.address, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
  return { status: res.status, text };
}

describe("Northwind Data: merchants that settle first (issue 38, item 6)", () => {
  it("list like real merchants and answer unpaid requests with a proper challenge declaring an enum input and an output schema", async () => {
    const { items } = await readCatalog(env.fleet.catalogUrl, 100);
    const hosts = new Set<string>();
    for (const kind of DELIVERY_KINDS) {
      const e = one(env.fleet, kind);
      hosts.add(new URL(e.url).origin);
      expect(Number(e.price), kind).toBeGreaterThanOrEqual(0.001);
      expect(Number(e.price), kind).toBeLessThanOrEqual(0.01);
      expect(e.quality.l30DaysTotalCalls, kind).toBeGreaterThan(0);
      expect(e.expected.evidence).toBe("delivery");
      const res = await nakedEndpoint(e);
      expect(res.status, kind).toBe(402);
      expect(challengeOf(res).accepts[0]).toMatchObject({ amount: e.amount, payTo: e.payTo, asset: env.devnet.usdcAddress });
      const { values, output } = await declared(e);
      expect(values.length, kind).toBeGreaterThanOrEqual(2);
      expect(output).toMatchObject({ type: "object", required: expect.arrayContaining([expect.any(String)]) });
      const item = items.find((i) => i.resource === e.url)!;
      const challenged = (challengeOf(await nakedEndpoint(e)).extensions as any).bazaar;
      expect((item.extensions as any).bazaar.schema, kind).toEqual(challenged.schema);
      expect((item.extensions as any).bazaar.info.input, kind).toEqual(challenged.info.input);
    }
    expect([...hosts]).toEqual([env.fleet.hosts.delivery]);
  });

  it("paid_ok settles and delivers a body that matches its schema and depends on the input", async () => {
    const e = one(env.fleet, "paid_ok");
    const { param, values, output } = await declared(e);
    const a = await payOnce(e, 0, `${param}=${values[0]}`);
    const b = await payOnce(e, 0, `${param}=${values[1]}`);
    expect([a.status, b.status]).toEqual([200, 200]);
    const validate = ajv.compile(output);
    for (const body of [a.text, b.text]) expect(validate(JSON.parse(body)), JSON.stringify(validate.errors)).toBe(true);
    expect(a.text).not.toBe(b.text);
  });

  it("paid_500 settles, then answers 500", async () => {
    const e = one(env.fleet, "paid_500");
    const { param, values } = await declared(e);
    expect((await payOnce(e, 1, `${param}=${values[0]}`)).status).toBe(500);
  });

  it("paid_empty settles, then answers 200 with an empty body", async () => {
    const e = one(env.fleet, "paid_empty");
    const { param, values } = await declared(e);
    expect(await payOnce(e, 2, `${param}=${values[0]}`)).toEqual({ status: 200, text: "" });
  });

  it("paid_canned settles, then answers the same body for two different inputs", async () => {
    const e = one(env.fleet, "paid_canned");
    const { param, values } = await declared(e);
    const a = await payOnce(e, 3, `${param}=${values[0]}`);
    const b = await payOnce(e, 3, `${param}=${values[1]}`);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.text.length).toBeGreaterThan(50);
    expect(b.text).toBe(a.text);
  });

  it("paid_off_schema settles, then answers JSON outside the output schema it declares", async () => {
    const e = one(env.fleet, "paid_off_schema");
    const { param, values, output } = await declared(e);
    const { status, text } = await payOnce(e, 4, `${param}=${values[0]}`);
    expect(status).toBe(200);
    const validate = ajv.compile(output);
    expect(validate(JSON.parse(text))).toBe(false);
    const problems = validate.errors!.map((x) => x.keyword);
    expect(problems).toEqual(expect.arrayContaining(["required", "type"]));
  });

  it("paid_401 settles, then answers 401", async () => {
    const e = one(env.fleet, "paid_401");
    const { param, values } = await declared(e);
    expect((await payOnce(e, 5, `${param}=${values[0]}`)).status).toBe(401);
  });
});
