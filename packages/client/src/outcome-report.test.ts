import type { ClientEvmSigner } from "@x402/evm";
import { describe, expect, it } from "vitest";
import { recoverTypedDataAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { OUTCOME_REPORT_DOMAIN, OUTCOME_REPORT_TYPES, outcomeReportMessage } from "@x402-lookout/contracts/outcomes/typed-data";
import { ReportOutcomeBody } from "@x402-lookout/contracts/outcomes/report-outcome";
import { judgePaidAnswer, sendOutcomeReport, signOutcomeReport } from "./outcome-report.js";

const payer = privateKeyToAccount(`0x${"42".repeat(32)}`);

describe("signOutcomeReport", () => {
  it("signs a body the route accepts, which recovers to the paying wallet", async () => {
    const body = await signOutcomeReport(payer, {
      url: "https://api.example/q?x=1",
      tx: `0x${"ab".repeat(32)}`,
      outcome: "undelivered",
      detail: "HTTP 500",
      issuedAt: 1_800_000_000,
    });
    expect(ReportOutcomeBody.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({ payer: payer.address, issued_at: 1_800_000_000 });
    const signer = await recoverTypedDataAddress({
      domain: OUTCOME_REPORT_DOMAIN,
      types: OUTCOME_REPORT_TYPES,
      primaryType: "OutcomeReport",
      message: outcomeReportMessage(body as Parameters<typeof outcomeReportMessage>[0]),
      signature: body.signature as `0x${string}`,
    });
    expect(signer).toBe(payer.address);
  });

  it("names the settlement by its nonce when given one instead", async () => {
    const body = await signOutcomeReport(payer, { url: "https://api.example/q", nonce: `0x${"01".repeat(32)}`, outcome: "delivered" });
    expect(body.tx).toBeUndefined();
    expect(ReportOutcomeBody.safeParse(JSON.parse(JSON.stringify(body))).success).toBe(true);
  });
});

describe("signOutcomeReport's signer", () => {
  it("may be the @x402/evm ClientEvmSigner the client pays with", async () => {
    const signer: ClientEvmSigner = payer;
    const body = await signOutcomeReport(signer, { url: "https://api.example/q", tx: `0x${"ab".repeat(32)}`, outcome: "delivered" });
    expect(body).toMatchObject({ payer: payer.address, detail: "" });
  });
});

describe("judgePaidAnswer", () => {
  it("reads what a paid call got", () => {
    expect(judgePaidAnswer(200, '{"ok":1}')).toBe("delivered");
    expect(judgePaidAnswer(200, " ")).toBe("undelivered");
    expect(judgePaidAnswer(500, "boom")).toBe("undelivered");
    expect(judgePaidAnswer(402, "")).toBe("refused_after_payment");
  });
});

describe("sendOutcomeReport", () => {
  const body = {
    url: "https://api.example/q",
    tx: `0x${"ab".repeat(32)}`,
    outcome: "delivered" as const,
    payer: payer.address,
    issued_at: 1,
    signature: "0x01",
  };
  /** A fake Lookout answering from `answers`, recording when each report arrived. */
  const lookout = (answers: Array<[number, object, Record<string, string>?]>) => {
    const at: number[] = [];
    const fetch = (async () => {
      at.push(Date.now());
      const [status, json, headers] = answers.shift()!;
      return Response.json(json, { status, headers });
    }) as typeof globalThis.fetch;
    return { at, fetch };
  };

  it("tries again, waiting longer each time, while the settlement is not indexed yet", async () => {
    const l = lookout([
      [422, { error: "not_paid" }],
      [422, { error: "not_paid" }],
      [422, { error: "not_paid" }],
      [200, { id: "or_1" }],
    ]);
    expect(await sendOutcomeReport("http://lookout.test", body, { fetch: l.fetch, waitMs: 20 })).toEqual({ status: 200, body: { id: "or_1" } });
    const waits = l.at.slice(1).map((t, i) => t - l.at[i]!);
    expect(waits[0]).toBeGreaterThanOrEqual(18);
    expect(waits[1]).toBeGreaterThanOrEqual(38);
    expect(waits[2]).toBeGreaterThanOrEqual(78);
  });

  it("gives up after its attempts, and never retries any other refusal", async () => {
    const l = lookout([
      [422, { error: "not_paid" }],
      [422, { error: "not_paid" }],
    ]);
    expect((await sendOutcomeReport("http://lookout.test", body, { fetch: l.fetch, waitMs: 1, attempts: 2 })).status).toBe(422);
    for (const [status, error] of [
      [422, "signature_invalid"],
      [409, "already_reported"],
      [404, "unknown_endpoint"],
      [400, "invalid_input"],
    ] as const) {
      const once = lookout([[status, { error }]]);
      expect(await sendOutcomeReport("http://lookout.test", body, { fetch: once.fetch, waitMs: 1 })).toEqual({ status, body: { error } });
      expect(once.at).toHaveLength(1);
    }
  });

  it("waits a 429's Retry-After when it is longer", async () => {
    const l = lookout([
      [429, { error: "rate_limited" }, { "retry-after": "1" }],
      [200, { id: "or_2" }],
    ]);
    expect((await sendOutcomeReport("http://lookout.test", body, { fetch: l.fetch, waitMs: 1 })).status).toBe(200);
    expect(l.at[1]! - l.at[0]!).toBeGreaterThanOrEqual(990);
  });
});
