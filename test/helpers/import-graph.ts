import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import ts from "typescript";

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * Server code a client must never load: all of http, services, db, workers, chain and the
 * composition root. No exceptions: the wire vocabulary lives in packages/contracts.
 */
export const SERVER_CODE = [/^src\/(http|services|db|workers|chain|demo|cli)\//, /^src\/(main|roles|context|config)\.ts$/];
export const SERVER_PACKAGES = ["kysely", "undici", "pg", "@electric-sql/pglite", "pino", "prom-client", "@hono/node-server", "standardwebhooks", "solc"];

/** The files of `files` that are server code. */
export const serverCodeIn = (files: Iterable<string>) => [...files].filter((f) => SERVER_CODE.some((re) => re.test(f)));

/**
 * The modules that loading `entry` runs: relative files (repo-relative paths) and package
 * names, following value imports and re-exports only (type-only imports are erased).
 */
export function runtimeImports(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [resolve(ROOT, entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    const rel = relative(ROOT, file);
    if (files.has(rel)) continue;
    files.add(rel);
    for (const spec of valueSpecifiers(file)) {
      if (spec.startsWith(".")) queue.push(toSource(resolve(dirname(file), spec)));
      else if (spec.startsWith("@x402-lookout/")) queue.push(workspaceSource(spec));
      else if (!spec.startsWith("node:")) packages.add(packageName(spec));
    }
  }
  return { files, packages };
}

function valueSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const out: string[] = [];
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) out.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      out.push((node.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  // import("...") anywhere in the file loads its module too.
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0]))
      out.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** A workspace package's module as the source condition resolves it (packages/<name>/src). */
function workspaceSource(spec: string): string {
  const [, name, ...rest] = spec.split("/");
  const sub = rest.join("/").replace(/^internal\//, "") || "index";
  return resolve(ROOT, "packages", name!, "src", `${sub}.ts`);
}

/** "./x.js" is written for "./x.ts" (NodeNext resolution); plain ".js" files stay. */
function toSource(path: string): string {
  const ts = path.replace(/\.js$/, ".ts");
  return existsSync(ts) ? ts : path;
}

const packageName = (spec: string) =>
  spec
    .split("/")
    .slice(0, spec.startsWith("@") ? 2 : 1)
    .join("/");
