// @ts-check
import js from "@eslint/js";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

// The layers of docs/architecture.md, by the file an import resolves to. `except` lists what a
// layer may still reach inside `from`.
const zones = [
  {
    target: "./src/services",
    from: ["./src/http", "./src/workers", "./src/canary", "./src/chain", "./src/context.ts", "./src/config.ts"],
    message: "services take what they need as arguments, not from http, workers, adapters (chain, canary), context or config",
  },
  { target: "./src/db", from: ["./src/services", "./src/http", "./src/workers"], message: "db knows no services, http or workers" },
  { target: "./src/lib", from: "./src", except: ["./lib"], message: "lib imports nothing of src outside lib" },
  // Outside code reaches services through the one bag (createServices) and names their types,
  // constants and pure helpers through index.ts (src/services/exports.ts lists them).
  {
    target: ["./src/http", "./src/workers", "./src/cli", "./src/roles.ts", "./src/main.ts"],
    from: "./src/services",
    except: ["./index.ts", "./errors.ts"],
    message: "http, workers and cli reach services only through src/services/index.ts (the bag, types) and src/services/errors.ts",
  },
];

export default tseslint.config(
  { ignores: ["**/dist/", "data/", "node_modules/", "coverage/", "test-artifacts/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": ["error", { allow: ["error", "warn"] }],
    },
  },
  { files: ["scripts/**", "bench/**", "src/cli/**", "examples/**"], rules: { "no-console": "off" } },
  // Tests read JSON answers loosely; the assertions are the type check there.
  { files: ["test/**", "**/*.test.ts"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
  {
    files: ["src/**/*.ts"],
    // The layers bind the service's own code; a test beside it may import whatever it checks.
    ignores: ["src/**/*.test.ts"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".js"], extensionAlias: { ".js": [".ts", ".js"] } })],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts"] },
      "import-x/extensions": [".ts", ".js"],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-restricted-paths": ["error", { zones }],
    },
  },
  // Each package imports only its own files and the packages its package.json declares: the
  // pack-and-install test proves the same from the tarballs.
  ...["contracts", "client", "mcp"].map((name) => ({
    files: [`packages/${name}/src/**/*.ts`],
    // Tests beside the code are not packed (tsconfig.build.json leaves them out).
    ignores: [`packages/${name}/src/**/*.test.ts`],
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [
        createNodeResolver({
          extensions: [".ts", ".js"],
          extensionAlias: { ".js": [".ts", ".js"] },
          conditionNames: ["@x402-lookout/source", "types", "import", "default"],
        }),
      ],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts"] },
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-extraneous-dependencies": [
        "error",
        { packageDir: [`packages/${name}`], devDependencies: false, peerDependencies: true, includeTypes: true },
      ],
      "import-x/no-relative-packages": "error",
    },
  })),
);
