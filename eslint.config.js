import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", ".wrangler/", "dist/", "results/", "worker-configuration.d.ts", "migrations/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
  { files: ["scripts/**/*.mjs", "bench/**/*.mjs", "*.config.*"], languageOptions: { globals: globals.node } },
  { files: ["test/**"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
);
