import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const files = (dir: string, ext: RegExp) =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => ext.test(f))
    .map((f) => join(dir, f));

/** Everything a user reads an install line from: the READMEs, the docs, the pages, the examples. */
const READ = [
  "README.md",
  ...files("docs", /\.md$/),
  ...["client", "contracts", "mcp"].map((p) => `packages/${p}/README.md`),
  ...files("src/http/pages", /\.ts$/),
  ...files("examples", /\.(ts|md)$/),
];

/**
 * The packages are not on the npm registry (issue 35 item 7): an install from it would fetch
 * whatever holds the name. Every instruction installs the packed tarballs; the registry name
 * appears only as what it will be once published, never as a command to run today.
 */
describe("install instructions", () => {
  it("install from the registry nowhere", () => {
    const fromRegistry = /(npm (install|i|add)|npx( -y)?|pnpm add|yarn add)\s+(--?\S+\s+)*@x402-lookout\//;
    // A paragraph (or code block) may name such a command only to say it works once published.
    const offenders = READ.flatMap((f) =>
      readFileSync(join(ROOT, f), "utf8")
        .split(/\n\s*\n/)
        .filter((paragraph) => fromRegistry.test(paragraph) && !/\bpublished\b/.test(paragraph))
        .map((paragraph) => `${f}: ${paragraph.slice(0, 300)}`),
    );
    expect(offenders).toEqual([]);
    expect(READ.length).toBeGreaterThan(10);
  });

  it("name the script that packs the tarballs, and package.json has it", () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts["pack:packages"]).toContain("scripts/pack-packages.ts");
    for (const f of ["README.md", "packages/client/README.md", "packages/contracts/README.md", "packages/mcp/README.md"]) {
      expect(readFileSync(join(ROOT, f), "utf8"), f).toContain("npm run pack:packages");
    }
  });
});
