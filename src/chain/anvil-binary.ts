import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

// Same platform table as @foundry-rs/anvil's launcher. We depend on the platform package itself
// (docs/decisions/0006-anvil-platform-package.md) and call the binary directly, so no launcher
// process sits between us and anvil.
const PLATFORM_PACKAGES: Record<string, string | undefined> = {
  "linux-x64": "@foundry-rs/anvil-linux-amd64",
  "linux-arm64": "@foundry-rs/anvil-linux-arm64",
  "darwin-x64": "@foundry-rs/anvil-darwin-amd64",
  "darwin-arm64": "@foundry-rs/anvil-darwin-arm64",
  "win32-x64": "@foundry-rs/anvil-win32-amd64",
};

/** Absolute path of the anvil binary shipped in node_modules by the platform package. */
export function resolveAnvilBinary(): string {
  const key = `${process.platform}-${process.arch}`;
  const pkg = PLATFORM_PACKAGES[key];
  if (!pkg) throw new Error(`@foundry-rs/anvil ships no binary for ${key}`);
  let pkgDir: string;
  try {
    pkgDir = dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    throw new Error(`${pkg} is not installed (it ships the anvil binary); run npm install ${pkg} (package.json lists the linux-x64 one)`);
  }
  const bin = join(pkgDir, "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
  if (!existsSync(bin)) throw new Error(`anvil binary missing at ${bin}; reinstall ${pkg}`);
  return bin;
}
