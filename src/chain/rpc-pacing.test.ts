import { describe, expect, it } from "vitest";
import { classifyRpcError, createPacer } from "./rpc-pacing.js";

describe("classifyRpcError", () => {
  it("reads rate limits and range refusals from the shapes public RPCs answer", () => {
    expect(classifyRpcError({ message: "HTTP request failed.", cause: { status: 429 } })).toBe("rate_limited");
    expect(classifyRpcError({ message: "Request exceeds defined limit", code: -32005 })).toBe("range_too_large");
    expect(classifyRpcError({ message: "RPC error", details: "query returned more than 10000 results" })).toBe("range_too_large");
    expect(classifyRpcError({ message: "eth_getLogs is limited to a 10,000 block range", code: -32602 })).toBe("range_too_large");
    // viem's own cap on an answer's size (10 MB): a smaller range is the way out too.
    expect(classifyRpcError({ name: "ResponseBodyTooLargeError", message: "HTTP response body exceeded the size limit." })).toBe("range_too_large");
    expect(classifyRpcError({ message: "execution reverted" })).toBe("other");
  });
});

describe("createPacer", () => {
  it("retries a rate-limited request with growing waits, and passes other failures on", async () => {
    const waits: number[] = [];
    const paced = createPacer(1000, async (ms) => void waits.push(ms));
    let calls = 0;
    const value = await paced(async () => {
      if (++calls < 3) throw Object.assign(new Error("Too Many Requests"), { status: 429 });
      return "ok";
    });
    expect(value).toBe("ok");
    expect(waits.filter((w) => w >= 250)).toEqual([250, 500]);
    await expect(paced(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
  });
});
