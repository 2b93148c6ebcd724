import { readFileSync } from "node:fs";
import { MAX_BATCH_URLS } from "@x402-lookout/contracts/preflight/request";
import { describe, expect, it } from "vitest";
import { CREDIT_BUNDLE } from "../src/services/credits/bundle.js";
import { TRIAL } from "../src/services/signals/constants.js";
import { HOST_CALLS_PER_NETWORK } from "../src/services/trial/trial-quota.js";
import { WATCH_LIFETIME_MS } from "../src/services/watch/constants.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
/** The README's routes table row of `route`. */
const row = (route: string) => readme.split("\n").find((l) => l.startsWith(`| \`${route}\``)) ?? "";

/** The limits the README states, read from the constants the code enforces (issue 35 item 7). */
describe("the README's limits", () => {
  it("the free trial: per IP, per target host, per client network of a host, and the cache", () => {
    expect(row("POST /api/v1/preflight-trial")).toContain(
      `${TRIAL.perIpPerDay} calls per IP and ${TRIAL.perHostPerDay} per target host per UTC day, of which one client network (/24, /48) makes at most ${HOST_CALLS_PER_NETWORK}`,
    );
    expect(row("POST /api/v1/preflight-trial")).toContain(`the ${TRIAL.cacheSeconds} s cache`);
  });

  it("a batch, a watch and a credit bundle", () => {
    expect(row("POST /api/v1/preflight-batch")).toContain(`1 to ${MAX_BATCH_URLS} URLs`);
    expect(row("POST /api/v1/watch")).toContain(`a ${WATCH_LIFETIME_MS / 86_400_000}-day webhook subscription`);
    expect(readme).toContain(`buy ${CREDIT_BUNDLE.calls} preflights`);
  });
});
