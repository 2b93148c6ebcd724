// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

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
);
