import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { seedEndpoint, type EndpointSeed } from "../explorer/endpoint-seed.js";

/**
 * Every HTML page answers with a Content-Security-Policy that runs its own inline scripts and
 * styles by hash and nothing else: the pages are found from the app's GET routes (so a new page
 * is covered without being listed here), each script and style element's text is hashed from the
 * answer and looked up in the policy, and no style or event-handler attribute is left for the
 * policy to refuse.
 */
let ctx: TestContext;
let app: App;
let seed: EndpointSeed;
const CERT = "7b0c2a3e-1d4f-4a5b-8c6d-9e0f1a2b3c4d";

beforeAll(async () => {
  ctx = await createTestContext();
  app = createApp({ ctx, routes: productRoutes });
  seed = await seedEndpoint(ctx);
});
afterAll(() => ctx.close());

const hash = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
const directive = (policy: string, name: string) =>
  policy
    .split(";")
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name)
    ?.slice(1) ?? [];

/** The page paths: every GET route, its parameters filled from the seeded endpoint and the pages linking from it. */
async function pagePaths(): Promise<string[]> {
  const endpointPage = await (await app.request(`/endpoints/${seed.id}`)).text();
  const linked = (prefix: string) => endpointPage.match(new RegExp(`href="(/${prefix}/[^"/]+)"`))?.[1];
  const fill: Record<string, string | undefined> = {
    "/endpoints/:id": `/endpoints/${seed.id}`,
    "/providers/:id": linked("providers"),
    "/services/:id": linked("services"),
    "/verified/:certId": `/verified/${CERT}`,
  };
  const paths = [...new Set(app.routes.filter((r) => r.method === "GET").map((r) => r.path))].map((p) => fill[p] ?? p).filter((p) => !p.includes(":"));
  // Pages with query strings and error pages draw other markup from the same layout.
  return [...paths, `/endpoints/${seed.hostile}`, "/endpoints/999999", "/endpoints?sort=nonsense", "/check?url=https://wx.example/v1/forecast"];
}

describe("the pages' Content-Security-Policy", () => {
  it("is on every HTML page, allows each inline script and style by its hash, and leaves nothing inline it would refuse", async () => {
    const html: string[] = [];
    for (const path of await pagePaths()) {
      const res = await app.request(path);
      const text = await res.text();
      if (!res.headers.get("content-type")?.startsWith("text/html")) {
        expect(res.headers.get("content-security-policy"), path).toBeNull();
        continue;
      }
      html.push(path);
      const policy = res.headers.get("content-security-policy") ?? "";
      expect(directive(policy, "default-src"), path).toEqual(["'none'"]);
      expect(directive(policy, "frame-ancestors"), path).toEqual(["'none'"]);
      expect(directive(policy, "form-action"), path).toEqual(["'self'"]);
      expect(directive(policy, "img-src"), path).toEqual(["'self'", "data:", "http://lookout.test"]);
      const scriptSrc = directive(policy, "script-src");
      expect(
        scriptSrc.every((s) => s.startsWith("'sha256-")),
        path,
      ).toBe(true);
      for (const m of text.matchAll(/<script(?![^>]*type="application\/json")[^>]*>([\s\S]*?)<\/script>/g)) expect(scriptSrc, path).toContain(hash(m[1]!));
      const styleSrc = directive(policy, "style-src");
      expect(
        styleSrc.every((s) => s.startsWith("'sha256-")),
        path,
      ).toBe(true);
      const styles = [...text.matchAll(/<style>([\s\S]*?)<\/style>/g)];
      expect(styles.length, path).toBeGreaterThan(0);
      for (const m of styles) expect(styleSrc, path).toContain(hash(m[1]!));
      expect(text, path).not.toMatch(/<[^>]+\sstyle="/);
      expect(text, path).not.toMatch(/<[^>]+\son[a-z]+="/);
    }
    // The pages this must cover, found from the routes rather than listed.
    for (const p of [
      "/",
      "/check",
      "/spec",
      "/endpoints",
      `/endpoints/${seed.id}`,
      `/verified/${CERT}`,
      "/prober",
      "/dataset",
      "/api/v1/preflight",
      "/endpoints/999999",
    ])
      expect(html).toContain(p);
    expect(html.some((p) => p.startsWith("/providers/")) && html.some((p) => p.startsWith("/services/"))).toBe(true);
  });

  it("lets the pages with scripts run them: the check form's and the copy buttons' hashes are in the policy", async () => {
    for (const path of ["/", "/spec", `/endpoints/${seed.id}`]) {
      const res = await app.request(path);
      const scripts = [...(await res.text()).matchAll(/<script>([\s\S]*?)<\/script>/g)];
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const m of scripts) expect(directive(res.headers.get("content-security-policy")!, "script-src")).toContain(hash(m[1]!));
    }
  });
});
