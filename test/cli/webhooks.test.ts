import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { expect, it } from "vitest";

it("npm run webhooks prints each alert it receives and answers 204", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/webhooks.ts", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const lines: string[] = [];
  let notify = () => {};
  createInterface({ input: child.stdout! }).on("line", (l) => (lines.push(l), notify()));
  const until = (match: (l: string) => boolean) =>
    new Promise<string>((resolve) => {
      const check = () => {
        const hit = lines.find(match);
        if (hit) resolve(hit);
      };
      notify = check;
      check();
    });
  try {
    const url = (await until((l) => l.startsWith("receiving webhooks on "))).split(" ")[3]!;
    const alert = { type: "watch.alert", url: "http://127.0.0.1:1/geo/batch", signal: "dead", state: "fired" };
    const res = await fetch(`${url}tour`, { method: "POST", headers: { "webhook-id": "msg_1" }, body: JSON.stringify(alert) });
    expect(res.status).toBe(204);
    expect(await until((l) => l.includes("dead fired for"))).toBe("  dead fired for http://127.0.0.1:1/geo/batch");
    expect(lines.some((l) => l.includes("POST /tour  webhook-id msg_1"))).toBe(true);
  } finally {
    child.kill();
  }
}, 30_000);
