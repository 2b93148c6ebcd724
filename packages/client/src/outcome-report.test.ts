import { describe, expect, it } from "vitest";
import { recoverTypedDataAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { OUTCOME_REPORT_DOMAIN, OUTCOME_REPORT_TYPES, outcomeReportMessage } from "@x402-lookout/contracts/outcomes/typed-data";
import { ReportOutcomeBody } from "@x402-lookout/contracts/outcomes/report-outcome";
import { judgePaidAnswer, signOutcomeReport } from "./outcome-report.js";

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

describe("judgePaidAnswer", () => {
  it("reads what a paid call got", () => {
    expect(judgePaidAnswer(200, '{"ok":1}')).toBe("delivered");
    expect(judgePaidAnswer(200, " ")).toBe("undelivered");
    expect(judgePaidAnswer(500, "boom")).toBe("undelivered");
    expect(judgePaidAnswer(402, "")).toBe("refused_after_payment");
  });
});
