import { describe, expect, it } from "vitest";
import { brief } from "../../src/http/payment/facilitator-call.js";

// viem's revert dump as the SDK's facilitator returns it in invalidMessage (shortened).
const VIEM_DUMP = `The contract function "transferWithAuthorization" reverted with the following reason:
USDC: authorization is not yet valid

Contract Call:
  address:   0x036CbD53842c5426634e7929541eC2318f3dCF7e
Details: execution reverted: USDC: authorization is not yet valid
Version: viem@2.57.20`;

describe("the reason a payer is shown for a refused payment", () => {
  it("is the revert reason of viem's dump, not its opening line", () => {
    expect(brief(VIEM_DUMP)).toBe(": USDC: authorization is not yet valid");
  });

  it("is the reason after 'execution reverted:' when only that is given", () => {
    expect(brief("RPC error\nexecution reverted: FiatTokenV2: invalid signature\nmore")).toBe(": FiatTokenV2: invalid signature");
  });

  it("is the first line of any other message, at most 200 characters, and nothing for none", () => {
    expect(brief("insufficient funds for gas\nstack...")).toBe(": insufficient funds for gas");
    expect(brief("x".repeat(300))).toHaveLength(202);
    expect(brief(undefined)).toBe("");
    expect(brief("")).toBe("");
  });
});
