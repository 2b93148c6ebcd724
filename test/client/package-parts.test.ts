import { appendPaymentIdentifierToExtensions, declarePaymentIdentifierExtension, isValidPaymentId } from "@x402/extensions/payment-identifier";
import ipaddr from "ipaddr.js";
import { describe, expect, it } from "vitest";
import { isLoopback } from "@x402-lookout/client/internal/base-url";
import { withPaymentId } from "@x402-lookout/client/internal/paying-fetch";

// The client dropped two dependencies for a few lines each (decision 23); these hold the lines
// equal to the libraries they replace, which the server still uses.
describe("the client's own payment-identifier and loopback check", () => {
  it("fill the payment-identifier extension exactly where @x402/extensions does", () => {
    for (const required of [false, true]) {
      const ours = withPaymentId({ "payment-identifier": declarePaymentIdentifierExtension(required) });
      const sdk = appendPaymentIdentifierToExtensions({ "payment-identifier": declarePaymentIdentifierExtension(required) });
      const id = (ours["payment-identifier"] as { info: { id: string } }).info.id;
      expect(isValidPaymentId(id)).toBe(true);
      expect(id).toMatch(/^pay_[0-9a-f]{32}$/);
      expect({ ...ours, "payment-identifier": { ...(ours["payment-identifier"] as object), info: { required, id: "x" } } }).toEqual({
        ...sdk,
        "payment-identifier": { ...(sdk["payment-identifier"] as object), info: { required, id: "x" } },
      });
    }
    // Not declared, or declared without its `required` flag: both leave the extensions as they are.
    for (const extensions of [{}, { "payment-identifier": { info: {} } }, { other: { info: { required: true } } }]) {
      expect(withPaymentId(structuredClone(extensions))).toEqual(appendPaymentIdentifierToExtensions(structuredClone(extensions)));
    }
  });

  it("call loopback exactly what ipaddr.js calls loopback, as URLs write hosts", () => {
    const hosts = [
      "127.0.0.1",
      "127.255.0.9",
      "[::1]",
      "[::ffff:127.0.0.1]",
      "[::ffff:7f00:1]",
      "128.0.0.1",
      "10.0.0.1",
      "[::2]",
      "[::ffff:10.0.0.1]",
      "0.0.0.0",
      "126.1.1.1",
    ];
    for (const host of hosts) {
      const hostname = new URL(`http://${host}/`).hostname;
      const bare = hostname.replace(/^\[|\]$/g, "");
      const parsed = ipaddr.process(bare);
      expect(isLoopback(hostname), host).toBe(parsed.range() === "loopback");
    }
    expect(isLoopback("localhost")).toBe(true);
    expect(isLoopback("lookout.example")).toBe(false);
  });
});
