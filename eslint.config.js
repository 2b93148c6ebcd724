// @ts-check
import js from "@eslint/js";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

// The layers of docs/architecture.md, by the file an import resolves to. `except` lists what a
// layer may still reach inside `from`.
const zones = [
  { target: "./src/services", from: ["./src/http", "./src/workers", "./src/context.ts", "./src/config.ts"], message: "services take what they need as arguments, not from http, workers, context or config" },
  { target: "./src/db", from: ["./src/services", "./src/http", "./src/workers"], message: "db knows no services, http or workers" },
  { target: "./src/lib", from: "./src", except: ["./lib"], message: "lib imports nothing of src outside lib" },
];
// Not yet clean (issue 22, the wire types still live in src/http/routes): warnings, listed by
// every lint run, until contracts import only zod and the client only client, contracts and lib.
const zonesToClean = [
  { target: "./src/http/contracts", from: "./src", except: ["./http/contracts"], message: "contracts import only each other and zod" },
  { target: "./src/client", from: "./src", except: ["./client", "./http/contracts", "./lib"], message: "the client loads only client, contracts and lib code" },
];

export default tseslint.config(
  { ignores: ["dist/", "data/", "node_modules/", "coverage/", "test-artifacts/"] },
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
  { files: ["test/**"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
  {
    files: ["src/**/*.ts"],
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
  { files: ["src/http/contracts/**/*.ts", "src/client/**/*.ts"], rules: { "import-x/no-restricted-paths": ["warn", { zones: zonesToClean }] } },
);
