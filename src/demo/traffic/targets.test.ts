import { describe, expect, it } from "vitest";
import type { DemoEndpoint } from "../types.js";
import { trafficTargets, walletFor } from "./targets.js";

const endpoint = (kind: DemoEndpoint["kind"], price = "0.001") => ({ kind, price, url: `http://x/${kind}` }) as DemoEndpoint;

describe("the demo traffic's targets", () => {
  it("pays the honest listings and one failing merchant, never ghosts, traps or anything over 0.01", () => {
    const fleet = [
      endpoint("healthy"),
      endpoint("ghost"),
      endpoint("never_paid"),
      endpoint("decoy", "2500"),
      endpoint("paid_500"),
      endpoint("healthy", "0.05"),
    ];
    expect(trafficTargets(fleet).map((e) => e.url)).toEqual(["http://x/healthy", "http://x/paid_500"]);
  });

  it("gives every target two distinct payers over two rounds", () => {
    for (let t = 0; t < 5; t++) expect(walletFor(0, t, 3)).not.toBe(walletFor(1, t, 3));
  });
});
