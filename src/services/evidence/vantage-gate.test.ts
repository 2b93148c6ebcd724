import { describe, expect, it } from "vitest";
import { VANTAGE_CONFIRM_WAIT_MS } from "./vantages.js";
import { type GateRow, vantageGate } from "./vantage-gate.js";

const now = new Date("2026-11-20T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
const row = (over: Partial<GateRow> = {}): GateRow => ({
  critical: false,
  last_outcome: "error",
  last_vantage: "a",
  last_probed_at: ago(1000),
  confirm: null,
  ...over,
});

describe("vantageGate (decision 0048)", () => {
  it("one live vantage: never holds, and drops a leftover request", () => {
    expect(vantageGate(row(), true, 1, now)).toEqual({ hold: false, open: null, close: false });
    expect(vantageGate(row({ confirm: { requested_by: "a", requested_at: ago(5000), confirmed_at: null } }), true, 1, now).close).toBe(true);
  });

  it("a failure opens a request from its vantage; a newly critical verdict waits for it", () => {
    expect(vantageGate(row(), false, 2, now)).toEqual({ hold: false, open: "a", close: false });
    expect(vantageGate(row(), true, 2, now)).toEqual({ hold: true, open: "a", close: false });
    // Already published critical: the next failure is no new flag and is not held.
    expect(vantageGate(row({ critical: true }), true, 2, now).hold).toBe(false);
  });

  it("publishes once another vantage probed, or once the wait is over", () => {
    const open = { requested_by: "a", requested_at: ago(10_000), confirmed_at: null };
    expect(vantageGate(row({ confirm: open }), true, 2, now).hold).toBe(true);
    expect(vantageGate(row({ confirm: { ...open, confirmed_at: ago(5000) } }), true, 2, now).hold).toBe(false);
    expect(vantageGate(row({ confirm: open, last_vantage: "b", last_probed_at: ago(5000) }), true, 2, now).hold).toBe(false);
    // The same vantage probing again is no confirmation.
    expect(vantageGate(row({ confirm: open, last_probed_at: ago(5000) }), true, 2, now).hold).toBe(true);
    expect(vantageGate(row({ confirm: { ...open, requested_at: ago(VANTAGE_CONFIRM_WAIT_MS) } }), true, 2, now).hold).toBe(false);
  });

  it("a healthy newest answer closes the request", () => {
    const open = { requested_by: "a", requested_at: ago(10_000), confirmed_at: ago(5000) };
    expect(vantageGate(row({ confirm: open, last_outcome: "healthy", last_vantage: "b" }), false, 2, now)).toEqual({ hold: false, open: null, close: true });
  });
});
