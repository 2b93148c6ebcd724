import { describe, expect, it } from "vitest";
import { serviceEndpoints } from "./service-endpoints.js";
import type { ListingRow } from "./listing-row.js";

// Zombie's per-endpoint count (decision 0015): an endpoint that answered 400/422 to our input is up (decision 0046).
const row = (url: string, probes: number, healthy: number, needsInput = 0) =>
  ({ service_id: "s", url_normalized: url, probes_1h: probes, healthy_1h: healthy, needs_input_1h: needsInput }) as unknown as ListingRow;

describe("serviceEndpoints", () => {
  it("counts an endpoint failed on enough probes, none healthy and none refusing our input", () => {
    expect(serviceEndpoints([row("a", 3, 0), row("b", 4, 0)]).get("s")).toEqual({ endpoints: 2, failed: 2, healthy: 0 });
    expect(serviceEndpoints([row("a", 3, 0), row("b", 4, 0, 2)]).get("s")).toEqual({ endpoints: 2, failed: 1, healthy: 0 });
    expect(serviceEndpoints([row("a", 3, 0), row("b", 0, 0, 6)]).get("s")).toEqual({ endpoints: 2, failed: 1, healthy: 0 });
  });
});
