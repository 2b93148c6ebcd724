import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { anvilAccount } from "../../src/chain/devnet-accounts.js";
import { freePort } from "../helpers/free-port.js";
import { spawnService, type SpawnedService } from "../helpers/spawn-service.js";

let svc: SpawnedService | undefined;
let blocker: Server | undefined;
afterEach(async () => {
  svc?.cleanup();
  await new Promise((r) => (blocker ? blocker.close(r) : r(undefined)));
  svc = blocker = undefined;
});

describe("npm start, as an operator runs it", () => {
  it("stops with one plain line and exit code 1 when the port is taken, before the database, devnet or demo fleet start", async () => {
    const port = await freePort();
    blocker = createServer();
    await new Promise<void>((r) => blocker!.listen(port, "127.0.0.1", r));
    const started = Date.now();
    svc = spawnService({ PORT: String(port) });
    expect(await svc.exited).toBe(1);
    expect(svc.stderr).toEqual([`port ${port} is in use: set PORT or stop the other process`]);
    expect(svc.lines).toEqual([]); // no log line at all: nothing was started
    expect(Date.now() - started).toBeLessThan(20_000); // node and tsx starting, not the devnet (it takes longer)
  });

  it("becomes ready on a fresh start, prints the banner once as one log line, and serves /metrics only on the admin listener", async () => {
    const adminPort = await freePort();
    svc = spawnService({ ADMIN_PORT: String(adminPort) });
    const bannerLine = await svc.waitForLine((l) => l.msg === "x402 Lookout ready to try", 30_000);
    const url = String(bannerLine.url);
    expect(bannerLine.demoPayerKey).toBe(anvilAccount(1).privateKey);
    const demo = bannerLine.demoEndpoints as Record<string, string>;
    for (const kind of ["healthy", "decoy", "dead"]) expect(demo[kind]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(bannerLine.commands).toHaveLength(3);

    const started = Date.now();
    let ready = await fetch(`${url}/readyz`);
    while (ready.status !== 200 && Date.now() - started < 90_000) {
      await new Promise((r) => setTimeout(r, 500));
      ready = await fetch(`${url}/readyz`);
    }
    const report = (await ready.json()) as { checks: Record<string, unknown> };
    expect(ready.status, JSON.stringify(report)).toBe(200);
    expect(Object.keys(report.checks)).toEqual(["process", "database", "verdicts", "catalog", "facilitator", "probing"]);

    expect((await fetch(`${url}/metrics`)).status).toBe(404);
    const metrics = await (await fetch(`http://127.0.0.1:${adminPort}/metrics`)).text();
    expect(metrics).toMatch(/^lookout_verdict_age_seconds \d/m);
    expect(metrics).toMatch(/^lookout_catalog_age_seconds \d/m);
    expect(svc.lines.filter((l) => l.msg === "x402 Lookout ready to try")).toHaveLength(1);

    svc.child.kill("SIGTERM");
    expect(await svc.exited).toBe(0);
  }, 150_000);

  it("refuses a second service on the same data folder with one line naming it", async () => {
    const folder = mkdtempSync(join(tmpdir(), "lookout-shared-"));
    svc = spawnService({ DATA_DIR: folder });
    const second = { svc: undefined as SpawnedService | undefined };
    try {
      await svc.waitForLine((l) => l.msg === "database ready", 30_000);
      second.svc = spawnService({ DATA_DIR: folder });
      expect(await second.svc.exited).toBe(1);
      const fatal = second.svc.lines.find((l) => l.level === 60)!;
      expect(fatal.msg).toBe(
        `the embedded database at ${resolve(folder)} is in use by another process; one process per DATA_DIR (stop the other one), or set DATABASE_URL to share PostgreSQL between processes`,
      );
      expect(fatal.err).toBeUndefined(); // no stack trace
    } finally {
      second.svc?.cleanup();
      svc.cleanup();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
