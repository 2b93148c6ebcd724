import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePayArgs, PayUsageError } from "../../src/cli/pay/args.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { HOUR } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { freePort } from "../helpers/free-port.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";

const run = promisify(execFile);
let svc: PaidService;
const TARGET = "https://wx.example/v1/forecast";

/** `npm run pay -- ...` as a newcomer runs it, against a real running service. */
async function pay(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = { LOOKOUT_BASE_URL: svc.url, PAYER_KEY: svc.devnet.demoAccounts[4]!.privateKey };
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(LOOKOUT_|PAYER_KEY|CREDIT_ID)/.test(k)));
  try {
    const r = await run(process.execPath, ["--conditions=@x402-lookout/source", "--import", "tsx", "src/cli/pay.ts", ...args], {
      env: { ...clean, ...base, ...env },
      timeout: 60_000,
    });
    return { code: 0, ...r };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
/** The answer's body: the last JSON block printed at the start of a line (after any receipt). */
const jsonOf = (stdout: string) => {
  const text = stdout.split("\nuse it:")[0]!;
  return JSON.parse(text.slice(text.lastIndexOf("\n{\n") + 1, text.lastIndexOf("\n}") + 2));
};

beforeAll(async () => {
  svc = await startPaidService({ routes: productRoutes });
  const id = await seedListing(svc.ctx, { url: TARGET, method: "GET", service: "Skycast", provider: "0xsky", price: "0.002" });
  await seedProbes(svc.ctx, id, series(3 * HOUR, 10 * 60_000));
  await recompute(svc.ctx);
}, 120_000);
afterAll(async () => svc?.close());

describe("npm run pay", () => {
  it("buys credits, reads their status with GET, and pays a preflight from them with --credit (no USDC moves)", async () => {
    const bought = await pay(["/api/v1/credits", "{}"]);
    expect(bought.code, bought.stderr).toBe(0);
    expect(bought.stdout).toContain("status  200 OK");
    expect(bought.stdout).toContain('"success": true');
    const { creditId } = jsonOf(bought.stdout);
    expect(bought.stdout).toContain(`--credit ${creditId}`);
    expect(bought.stdout).toContain(`npm run pay -- GET /api/v1/credits/${creditId}`);

    const payer = svc.payer(4);
    const before = await svc.balanceOf(payer);
    const viaCredit = await pay(["/api/v1/preflight", JSON.stringify({ url: TARGET, method: "GET" }), "--credit", creditId]);
    expect(viaCredit.code, viaCredit.stderr).toBe(0);
    expect(viaCredit.stdout).toContain(`credit  paid from bundle ${creditId}: 999 call(s) left`);
    expect(viaCredit.stdout).not.toContain("receipt");
    expect(jsonOf(viaCredit.stdout)).toMatchObject({ ok: true, recommended_action: "pay" });
    // X-Credit-Id from CREDIT_ID too.
    expect((await pay(["POST", "/api/v1/preflight", JSON.stringify({ url: TARGET, method: "GET" })], { CREDIT_ID: creditId })).stdout).toContain(
      "998 call(s) left",
    );
    expect(await svc.balanceOf(payer)).toBe(before);

    const status = await pay(["GET", `/api/v1/credits/${creditId}`]);
    expect(status.code, status.stderr).toBe(0);
    expect(jsonOf(status.stdout)).toMatchObject({ creditId, balance: 998, used: 2, usage: { header: `X-Credit-Id: ${creditId}` } });
  });

  it("buys a watch, reads and deletes it with its secret (WATCH_SECRET or --secret), and never prints the secret it was given", async () => {
    const created = await pay(["/api/v1/watch", JSON.stringify({ url: TARGET, webhookUrl: "https://93.184.216.34/hooks/lookout", signals: ["dead"] })]);
    expect(created.code, created.stderr).toBe(0);
    const { watchId, secret } = jsonOf(created.stdout);
    expect(created.stdout).toContain(`WATCH_SECRET=<its secret> npm run pay -- GET /api/v1/watch/${watchId}`);
    expect(created.stdout.split(secret)).toHaveLength(2); // in the answer, shown once, not in the hints

    const without = await pay(["GET", `/api/v1/watch/${watchId}`]);
    expect(without.stdout).toContain("status  404");
    expect(without.stderr).toContain("set WATCH_SECRET (or pass --secret)");

    const status = await pay(["GET", `/api/v1/watch/${watchId}`], { WATCH_SECRET: secret });
    expect(status.code, status.stderr).toBe(0);
    expect(jsonOf(status.stdout)).toMatchObject({ watchId, state: "active" });
    const removed = await pay(["DELETE", `/api/v1/watch/${watchId}`, "--secret", secret]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(jsonOf(removed.stdout)).toMatchObject({ watchId, state: "unsubscribed" });
    for (const r of [status, removed]) expect(r.stdout + r.stderr).not.toContain(secret);
  }, 90_000);

  it("names the cause when the service is down, instead of 'fetch failed'", async () => {
    const port = await freePort();
    const r = await pay(["GET", "/api/v1/credits/x"], { LOOKOUT_BASE_URL: `http://127.0.0.1:${port}` });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`cannot reach http://127.0.0.1:${port}: connection refused — is npm start running?`);
  });

  it("reads LOOKOUT_BASE_URL, and the old LOOKOUT_URL with a deprecation warning", async () => {
    const r = await pay(["GET", "/api/v1/credits/00000000-0000-4000-8000-000000000000"], { LOOKOUT_BASE_URL: "", LOOKOUT_URL: svc.url });
    expect(r.stdout).toContain("status  404");
    expect(r.stderr).toContain("LOOKOUT_URL is deprecated");
    expect(r.stderr).toContain("LOOKOUT_BASE_URL");
  });

  it("sends a watch secret to a watch's own route only, and refuses --secret elsewhere without printing it", () => {
    const secret = "f".repeat(64);
    expect(parsePayArgs(["GET", "/api/v1/watch/w1"], { WATCH_SECRET: secret }).watchSecret).toBe(secret);
    expect(parsePayArgs(["DELETE", "/api/v1/watch/w1", "--secret", secret], {}).watchSecret).toBe(secret);
    expect(parsePayArgs(["/api/v1/preflight", "{}"], { WATCH_SECRET: secret }).watchSecret).toBeUndefined();
    expect(parsePayArgs(["/api/v1/watch", "{}"], { WATCH_SECRET: secret }).watchSecret).toBeUndefined();
    const refused = () => parsePayArgs(["GET", "/api/v1/credits/c1", "--secret", secret], {});
    expect(refused).toThrow(new PayUsageError("--secret is for /api/v1/watch/<watchId> only"));
    expect(() => parsePayArgs(["GET", "/api/v1/watch/w1", "--secret"], {})).toThrow("--secret needs the watch's secret");
  });

  it("refuses a bad command line with its usage", async () => {
    const r = await pay(["GET", "/api/v1/credits/x", "{}"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("pay: a GET request takes no body");
    expect(r.stderr).toContain("--credit <creditId>");
  });
});
