import { afterEach, describe, expect, it } from "vitest";
import { spawnService, type SpawnedService } from "../helpers/spawn-service.js";

let svc: SpawnedService | undefined;
afterEach(() => svc?.cleanup());

const rpcAnswers = async (rpc: string) =>
  fetch(rpc, { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' })
    .then((r) => r.ok)
    .catch(() => false);

describe("npm start", () => {
  it("serves /healthz, /, /spec and /openapi.json within 15 s on embedded defaults, and stops cleanly on SIGTERM", async () => {
    const started = Date.now();
    svc = spawnService();
    const listening = await svc.waitForLine((l) => l.msg === "x402 Lookout listening", 15_000);
    const url = String(listening.url);
    const devnet = await svc.waitForLine((l) => typeof l.rpc === "string", 1_000);
    let health = await fetch(`${url}/healthz`);
    while (health.status !== 200 && Date.now() - started < 15_000) {
      await new Promise((r) => setTimeout(r, 100));
      health = await fetch(`${url}/healthz`);
    }
    expect(health.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(15_000);
    for (const path of ["/", "/spec", "/openapi.json"]) expect((await fetch(`${url}${path}`)).status).toBe(200);
    expect(await rpcAnswers(String(devnet.rpc))).toBe(true);

    svc.child.kill("SIGTERM");
    expect(await svc.exited).toBe(0);
    expect(svc.lines.some((l) => l.msg === "stopped")).toBe(true);
    expect(await rpcAnswers(String(devnet.rpc))).toBe(false);
  });

  it("Ctrl-C while starting stops what started, starts nothing more, shows no banner and exits within a second", async () => {
    svc = spawnService();
    // The devnet, the demo fleet and the roles are still to come once the database is ready.
    await svc.waitForLine((l) => l.msg === "database ready", 100_000);
    const sent = Date.now();
    svc.child.kill("SIGINT");
    expect(await svc.exited).toBe(0);
    const took = Date.now() - sent;
    expect(svc.lines.find((l) => l.msg === "shutting down")?.reason).toBe("SIGINT during start");
    expect(took).toBeLessThan(1_000);
    expect(svc.lines.filter((l) => l.msg === "x402 Lookout ready to try" || l.msg === "x402 Lookout listening")).toEqual([]);
    const devnet = svc.lines.find((l) => typeof l.rpc === "string");
    if (devnet) expect(await rpcAnswers(String(devnet.rpc))).toBe(false);
  }, 120_000);

  it("refuses a bad config before listening, one line per problem", async () => {
    svc = spawnService({ PORT: "eighty", NETWORK: "eip155:1" });
    expect(await svc.exited).toBe(1);
    expect(svc.stderr.filter((l) => l.startsWith("config: "))).toHaveLength(2);
    expect(svc.lines.some((l) => l.msg === "x402 Lookout listening")).toBe(false);
  });
});
