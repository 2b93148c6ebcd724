import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);
export const REPO = resolve(import.meta.dirname, "../..");

export interface PackedProject {
  dir: string;
  /** What `npm pack --json` says of each tarball: its package name and the paths it holds. */
  packed: Array<{ name: string; files: string[] }>;
  timings: { packMs: number; installMs: number };
  /** The environment children run in: this process's, without vitest's, npm's script variables and NODE_OPTIONS. */
  env(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

/**
 * Builds and packs the three packages with `npm run pack:packages`, then installs the tarballs, with
 * @x402/evm and viem, into an empty project outside the repository, as a user would.
 */
export async function packAndInstall(): Promise<PackedProject> {
  const dir = await mkdtemp(join(tmpdir(), "lookout-install-"));
  const env = (extra: Record<string, string> = {}) => ({ ...cleanEnv(), ...extra });
  try {
    const started = Date.now();
    // As the README says to: `npm run pack:packages` (npm pack of the three, prepack builds them).
    const pack = await exec("npm", ["run", "--silent", "pack:packages", "--", join(dir, "tarballs"), "--json"], {
      cwd: REPO,
      env: env(),
      maxBuffer: 16 << 20,
    });
    const tarballs = JSON.parse(pack.stdout) as Array<{ name: string; filename: string; files: Array<{ path: string }> }>;
    const packMs = Date.now() - started;
    const app = join(dir, "app");
    await mkdir(app);
    await writeFile(join(app, "package.json"), JSON.stringify({ name: "lookout-user", private: true, type: "module" }));
    const files = tarballs.map((t) => join(dir, "tarballs", t.filename));
    await exec("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...files, "@x402/evm", "viem"], { cwd: app, env: env() });
    return {
      dir: app,
      packed: tarballs.map((t) => ({ name: t.name, files: t.files.map((f) => f.path) })),
      timings: { packMs, installMs: Date.now() - started - packMs },
      env,
      close: () => rm(dir, { recursive: true, force: true }),
    };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

function cleanEnv(): Record<string, string> {
  const drop = (k: string) => k === "NODE_OPTIONS" || k.startsWith("VITEST") || /^npm_(?!config_)/.test(k) || k === "TEST_DATABASE_URL";
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !drop(e[0])));
}

/** Every package `name` depends on in `dir`'s install, transitively (dependencies and optional ones), as npm's lockfile places them. */
export async function installedTree(dir: string, name: string): Promise<Set<string>> {
  const lock = JSON.parse(await readFile(join(dir, "node_modules/.package-lock.json"), "utf8")) as {
    packages: Record<string, { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }>;
  };
  // Node's lookup: node_modules/<dep> beside the dependent first, then in each enclosing node_modules.
  const locate = (from: string, dep: string): string | undefined => {
    for (let base = from; ; base = base.slice(0, Math.max(0, base.lastIndexOf("/node_modules/")))) {
      const at = base ? `${base}/node_modules/${dep}` : `node_modules/${dep}`;
      if (at in lock.packages) return at;
      if (!base) return undefined;
    }
  };
  const seen = new Set<string>();
  const visit = (location: string) => {
    const entry = lock.packages[location];
    for (const dep of Object.keys({ ...entry?.dependencies, ...entry?.optionalDependencies })) {
      const at = locate(location, dep);
      if (at && !seen.has(at)) {
        seen.add(at);
        visit(at);
      }
    }
  };
  visit(`node_modules/${name}`);
  return new Set([...seen].map((at) => at.slice(at.lastIndexOf("node_modules/") + "node_modules/".length)));
}
