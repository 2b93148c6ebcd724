import { encodePaymentResponseHeader } from "@x402/core/http";
import { recoverTypedDataAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { ReportOutcomeBody } from "@x402-lookout/contracts/outcomes/report-outcome";
import { OUTCOME_REPORT_DOMAIN, OUTCOME_REPORT_TYPES, outcomeReportMessage } from "@x402-lookout/contracts/outcomes/typed-data";
import { lookoutPolicy, type ReportOutcomesOptions } from "@x402-lookout/client";

const LOOKOUT = "http://127.0.0.1:8402";
const TARGET = "https://merchant.example/v1/forecast?city=Lisbon";
const payer = privateKeyToAccount(`0x${"42".repeat(32)}`);
const TX = `0x${"ab".repeat(32)}`;

type Report = Parameters<NonNullable<ReportOutcomesOptions["onReport"]>>[0];

const receipt = (over: Record<string, unknown> = {}) =>
  encodePaymentResponseHeader({ success: true, transaction: TX, network: "eip155:84532", payer: payer.address, ...over } as never);

/**
 * lookoutPolicy's fetch over a fake merchant that answers `answer`, reporting with `opts` to a
 * fake Lookout that records each report and answers from `lookoutAnswers` (then 200).
 */
function harness(answer: () => Response, opts: Partial<ReportOutcomesOptions> = {}, lookoutAnswers: Array<[number, object]> = []) {
  const posted: Array<Record<string, unknown>> = [];
  const reports: Report[] = [];
  let reported: (r: Report) => void = () => undefined;
  const sendReport = (async (input: string | URL | Request, init?: RequestInit) => {
    expect(String(input)).toBe(`${LOOKOUT}/api/v1/outcomes`);
    posted.push(JSON.parse(String(init!.body)) as Record<string, unknown>);
    const [status, body] = lookoutAnswers.shift() ?? [200, { id: "or_x" }];
    return Response.json(body, { status });
  }) as typeof fetch;
  const policy = lookoutPolicy({
    lookout: { baseUrl: LOOKOUT, preflight: (() => Promise.reject(new Error("not called"))) as never },
    reportOutcomes: { signer: payer, fetch: sendReport, onReport: (r) => (reports.push(r), reported(r)), ...opts },
  });
  const merchant = (async () => answer()) as typeof fetch;
  return {
    fetch: policy.fetch(merchant),
    posted,
    reports,
    /** The next onReport. */
    next: () => new Promise<Report>((resolve) => (reported = resolve)),
  };
}

const paid = { headers: { "PAYMENT-SIGNATURE": "c2lnbmVk" } };
const settle = () => new Promise((r) => setTimeout(r, 30));

describe("lookoutPolicy's reportOutcomes", () => {
  it("reports a paid answer once, signed by the payer, and leaves the agent's body to the agent", async () => {
    const h = harness(() => new Response('{"temp":21}', { status: 200, headers: { "PAYMENT-RESPONSE": receipt() } }));
    const next = h.next();
    const res = await h.fetch(TARGET, paid);
    expect(await res.text()).toBe('{"temp":21}');
    expect(await next).toEqual({ url: TARGET, outcome: "delivered", status: 200 });
    expect(h.posted).toHaveLength(1);
    const body = h.posted[0]!;
    expect(ReportOutcomeBody.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({ url: TARGET, tx: TX, outcome: "delivered", detail: "HTTP 200", payer: payer.address });
    const signer = await recoverTypedDataAddress({
      domain: OUTCOME_REPORT_DOMAIN,
      types: OUTCOME_REPORT_TYPES,
      primaryType: "OutcomeReport",
      message: outcomeReportMessage(body as Parameters<typeof outcomeReportMessage>[0]),
      signature: body.signature as `0x${string}`,
    });
    expect(signer).toBe(payer.address);
  });

  it("reads v1's X-PAYMENT and X-PAYMENT-RESPONSE too", async () => {
    const h = harness(() => new Response("", { status: 500, headers: { "X-PAYMENT-RESPONSE": receipt() } }));
    const next = h.next();
    await h.fetch(TARGET, { headers: { "X-PAYMENT": "c2lnbmVk" } });
    expect(await next).toEqual({ url: TARGET, outcome: "undelivered", status: 200 });
  });

  it("judges refusals after payment, and a judge of the agent's overrides", async () => {
    const refused = harness(() => new Response("no", { status: 403, headers: { "PAYMENT-RESPONSE": receipt() } }));
    const first = refused.next();
    await refused.fetch(TARGET, paid);
    expect((await first).outcome).toBe("refused_after_payment");
    const judged: Array<[number, string]> = [];
    const own = harness(() => new Response("<html>", { status: 200, headers: { "PAYMENT-RESPONSE": receipt() } }), {
      judge: (status, body) => (judged.push([status, body]), "invalid_output"),
    });
    const second = own.next();
    await own.fetch(TARGET, paid);
    expect((await second).outcome).toBe("invalid_output");
    expect(judged).toEqual([[200, "<html>"]]);
  });

  it("reports nothing for a 402, an unpaid request, a failed settlement or another wallet's", async () => {
    const answers = [
      () => new Response("{}", { status: 402, headers: { "PAYMENT-REQUIRED": btoa("{}") } }),
      () => new Response("{}", { status: 200, headers: { "PAYMENT-RESPONSE": receipt({ success: false, transaction: "" }) } }),
      () => new Response("{}", { status: 200, headers: { "PAYMENT-RESPONSE": receipt({ payer: `0x${"11".repeat(20)}` }) } }),
    ];
    for (const [n, answer] of answers.entries()) {
      const h = harness(answer);
      await h.fetch(TARGET, paid);
      if (n === 0) await h.fetch(TARGET);
      await settle();
      expect(h.posted, `answer ${n}`).toEqual([]);
    }
    const unpaid = harness(() => new Response("{}", { status: 200, headers: { "PAYMENT-RESPONSE": receipt() } }));
    await unpaid.fetch(TARGET);
    await settle();
    expect(unpaid.posted).toEqual([]);
  });

  it("hands a malformed receipt to onReport and the answer to the agent", async () => {
    const h = harness(() => new Response("{}", { status: 200, headers: { "PAYMENT-RESPONSE": "%%%" } }));
    const next = h.next();
    const res = await h.fetch(TARGET, paid);
    expect(res.status).toBe(200);
    expect(await next).toMatchObject({ url: TARGET, outcome: null, status: null, error: expect.any(Error) });
    expect(h.posted).toEqual([]);
  });

  it("retries while Lookout's index has not read the settlement, and passes a refusal on", async () => {
    const h = harness(() => new Response("{}", { status: 200, headers: { "PAYMENT-RESPONSE": receipt() } }), { retry: { waitMs: 1 } }, [
      [422, { error: "not_paid" }],
      [422, { error: "signature_invalid" }],
    ]);
    const next = h.next();
    await h.fetch(TARGET, paid);
    expect(await next).toEqual({ url: TARGET, outcome: "delivered", status: 422 });
    expect(h.posted).toHaveLength(2);
  });

  it("judges a body that never ends from its head, without holding the agent's stream", async () => {
    let pulls = 0;
    const endless = () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          pulls++;
          controller.enqueue(new Uint8Array(64 * 1024).fill(0x61));
        },
      });
    const judged: number[] = [];
    const h = harness(() => new Response(endless(), { status: 200, headers: { "PAYMENT-RESPONSE": receipt() } }), {
      judge: (_, body) => (judged.push(body.length), "delivered"),
    });
    const next = h.next();
    const res = await h.fetch(TARGET, paid);
    expect(await next).toMatchObject({ outcome: "delivered", status: 200 });
    expect(judged).toEqual([1 << 20]);
    const reader = res.body!.getReader();
    expect((await reader.read()).value!.byteLength).toBe(64 * 1024);
    await reader.cancel();
    expect(pulls).toBeLessThan(40);
  });
});
