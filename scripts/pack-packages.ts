/**
 * npm run pack:packages [-- <folder>] [--json]: builds the three packages (their prepack) and
 * writes their tarballs into ./packed (or <folder>), then says how to install them. The packages
 * are not on the npm registry yet; these tarballs are how a project installs them today.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const PACKAGES = ["@x402-lookout/contracts", "@x402-lookout/client", "@x402-lookout/mcp"];

const args = process.argv.slice(2);
const json = args.includes("--json");
// npm run starts scripts in the repository; a folder given on the command line is the caller's.
const dest = resolve(process.env.INIT_CWD ?? process.cwd(), args.find((a) => a !== "--json") ?? join(ROOT, "packed"));
mkdirSync(dest, { recursive: true });
const out = execFileSync("npm", ["pack", ...PACKAGES.flatMap((p) => ["-w", p]), "--pack-destination", dest, "--json"], {
  cwd: ROOT,
  encoding: "utf8",
  stdio: ["ignore", "pipe", "inherit"],
  maxBuffer: 16 << 20,
});
if (json) {
  process.stdout.write(out);
} else {
  const packed = JSON.parse(out) as Array<{ name: string; filename: string }>;
  const path = (name: string) => join(dest, packed.find((p) => p.name === name)!.filename);
  console.log(`packed into ${dest}:\n${packed.map((p) => `  ${p.filename}  (${p.name})`).join("\n")}\n`);
  console.log(
    `In your project, the typed client (with @x402/evm and viem to pay):\n  npm install ${path("@x402-lookout/contracts")} ${path("@x402-lookout/client")} @x402/evm viem`,
  );
  console.log(`The MCP server too (bin lookout-mcp):\n  npm install ${PACKAGES.map(path).join(" ")}`);
}
