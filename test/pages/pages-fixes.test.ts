import { execFileSync } from "node:child_process";
import { routeContracts, type RouteName } from "@x402-lookout/contracts";
import { WARNING_GLOSSARY } from "@x402-lookout/contracts/glossary";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../src/http/app.js";
import type { AnyRouteDef } from "../../src/http/registry.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { shellQuote } from "../../src/http/pages/try-it.js";
import type { TestContext } from "../helpers/context.js";
import { escapeHtml, pageApp, unescapeHtml } from "./page-app.js";

const BASE = "http://lookout.test";
const SECRET = "s3cret with 'quotes' and $dollars";
let ctx: TestContext;
let app: App;
let html: (path: string) => Promise<string>;
let spec: string;

beforeAll(async () => {
  ({ ctx, app, html } = await pageApp());
  spec = await html("/spec");
});
afterAll(() => ctx?.close());

/** The words bash makes of a command, with curl replaced by a function that prints its arguments. */
const shellWords = (command: string): string[] =>
  execFileSync("bash", ["-c", `curl() { printf '%s\\0' "$@"; }\n${command}`], { env: { PATH: process.env.PATH, LOOKOUT_SECRET: SECRET } })
    .toString()
    .split("\0")
    .slice(0, -1);

const blocks = (page: string, kind: "curl" | "client") =>
  new Map([...page.matchAll(new RegExp(`<code class="try-${kind}" data-route="([^"]+)">([\\s\\S]*?)</code>`, "g"))].map((m) => [m[1], unescapeHtml(m[2]!)]));

/** The request a curl command makes: -X, -H and -d, the one other word being the URL. */
function parseCurl(words: string[]) {
  const req = { method: "GET", url: "", headers: {} as Record<string, string>, body: undefined as string | undefined };
  for (let i = 0; i < words.length; i++) {
    const [w, next] = [words[i]!, words[i + 1]!];
    if (w === "-X") [req.method, i] = [next, i + 1];
    else if (w === "-H") [req.headers[next.slice(0, next.indexOf(":")).toLowerCase()], i] = [next.slice(next.indexOf(":") + 1).trim(), i + 1];
    else if (w === "-d") [req.body, i] = [next, i + 1];
    else req.url = w;
  }
  return req;
}

const pagesWithTryIt = productRoutes.filter((d) => d.method === "post");

describe("Try it", () => {
  it("quotes any string so that bash gives it back unchanged", () => {
    const nasty = [`it's`, `{"a":"b c"}`, `$HOME`, "back`tick`", `"`, `''`, "a\nb"];
    expect(shellWords(`curl ${nasty.map(shellQuote).join(" ")}`)).toEqual(nasty);
  });

  it.each(productRoutes.map((d) => [d.id, d] as const))(
    "%s: /spec's curl command is valid shell that sends the example to the real URL",
    async (_id, def: AnyRouteDef) => {
      const command = blocks(spec, "curl").get(def.id);
      expect(command, def.id).toBeDefined();
      const req = parseCurl(shellWords(command!));
      expect(req.method).toBe(def.method.toUpperCase());
      expect(req.url.startsWith(`${BASE}/api/v1/`)).toBe(true);
      expect(new URL(req.url).pathname).toMatch(new RegExp(`^${def.path.replace(/:\w+/g, "[\\w-]+")}$`));
      if (def.method === "post") expect([req.headers["content-type"], JSON.parse(req.body!)]).toEqual(["application/json", def.examples.request ?? {}]);
      expect(req.headers.authorization).toBe(def.bearerSecret ? `Bearer ${SECRET}` : undefined);
      if (def.price !== null) {
        // Pasted against the service, the example passes validation and gets the payment challenge.
        const res = await app.request(new URL(req.url).pathname, { method: req.method, headers: req.headers, body: req.body });
        expect(res.status, await res.clone().text()).toBe(402);
      }
    },
  );

  it("shows the same call through the typed client, under the route's method name", () => {
    const calls = blocks(spec, "client");
    for (const def of productRoutes) {
      const code = calls.get(def.id)!;
      expect(code, def.id).toContain(`createLookoutClient({ baseUrl: "${BASE}"`);
      const [, name, args] = code.match(/await lookout\.(\w+)\((.*)\);$/)!;
      expect(routeContracts[name as RouteName].id).toBe(def.id);
      if (def.bearerSecret) expect(args).toContain("secret: process.env.LOOKOUT_SECRET");
      else expect(JSON.parse(args || "{}")).toMatchObject(def.examples.request ?? {});
    }
  });

  it.each(pagesWithTryIt.map((d) => [d.id, d] as const))("GET %s: the reference page has its command and copy button", async (_id, def) => {
    const page = await html(def.path);
    expect(page).toContain(`<h1>${escapeHtml(def.title)}</h1>`);
    expect(blocks(page, "curl").get(def.id)).toBe(blocks(spec, "curl").get(def.id));
    expect(page).toMatch(/<button type="button" class="copy" hidden[^>]*>Copy<\/button>[\s\S]*navigator\.clipboard/);
  });
});

describe("pages fixed", () => {
  it("GET /api/v1/preflight-trial is the free trial's reference page", async () => {
    const page = await html("/api/v1/preflight-trial");
    expect(page).toContain("<h1>Preflight trial (free)</h1>");
    expect(page).toContain('<span class="price">free</span>');
    const words = shellWords(blocks(page, "curl").get("preflight-trial")!);
    expect(parseCurl(words)).toMatchObject({
      method: "POST",
      url: `${BASE}/api/v1/preflight-trial`,
      body: '{"url":"https://premium-signals.example/api/alpha"}',
    });
  });

  it("schema tables show real bounds only: no safe-integer limits, percentages 0 to 100", async () => {
    for (const page of [spec, ...(await Promise.all(pagesWithTryIt.map((d) => html(d.path))))]) expect(page).not.toContain("9007199254740991");
    const fields = spec.replaceAll("<wbr>", "");
    const notes = (field: string) =>
      [...fields.matchAll(new RegExp(`<tr><td><code>${field.replace(/[.[\]]/g, "\\$&")}</code></td>(?:<td>[^<]*</td>){2}<td>([^<]*)</td>`, "g"))].map(
        (m) => m[1],
      );
    for (const pct of [
      "uptime.uptime_7d_pct",
      "metadata.uptime_1h_pct",
      "alternatives[].uptime_7d_pct",
      "concentration.concentration_pct",
      "recovered[].uptime_48h_pct",
    ])
      expect(notes(pct), pct).toEqual(expect.arrayContaining([expect.stringContaining("from 0 to 100")]));
    expect(notes("limit")).toEqual(expect.arrayContaining([expect.stringContaining("from 1 to 10"), expect.stringContaining("from 1 to 500")]));
    expect(notes("since")).toEqual(expect.arrayContaining([expect.stringContaining("at least 0")]));
  });

  it("/spec has a table of contents linking every section, route and warning code, and the glossary", () => {
    const toc = spec.match(/<nav aria-labelledby="contents" class="toc">([\s\S]*?)<\/nav>/)![1]!;
    const links = [...toc.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]!);
    const codes = Object.keys(WARNING_GLOSSARY);
    expect(links).toEqual(expect.arrayContaining([...productRoutes.map((d) => d.id), ...codes.map((c) => `code-${c}`), "warning-codes"]));
    for (const id of links) expect(spec, id).toContain(` id="${id}"`);
    for (const [code, { title, meaning }] of Object.entries(WARNING_GLOSSARY)) {
      expect(spec).toContain(`<dt id="code-${code}"><code>${code}</code> · ${escapeHtml(title)}`);
      expect(spec).toContain(`<dd>${escapeHtml(meaning)}</dd>`);
    }
  });
});
