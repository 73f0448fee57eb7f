import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", ".wrangler/", "dist/", "results/", "worker-configuration.d.ts", "migrations/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Type-aware rules. The project service finds tsconfig.json (the Worker, its tests, bench
    // entries); the Node-side files that tsconfig.node.json covers are listed here, checked with it.
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: [
            "*.config.ts",
            "src/cli/*.ts",
            "test/node/*.ts",
            "test/node/support/*.ts",
            "e2e/*.ts",
            "e2e/support/*.ts",
            "test/support/global-setup.ts",
            "test/support/summary-reporter.ts",
            "test/support/workers-pool.ts",
            "test/simulation/global-setup.ts",
          ],
          defaultProject: "tsconfig.node.json",
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 48,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-empty": ["error", { allowEmptyCatch: true }],
      // A promise nobody awaits loses its error (and, in a Worker, may be cut off when the response is sent).
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
    },
  },
  // Plain JavaScript (scripts, bench, configs) has no types to check against.
  { files: ["**/*.js", "**/*.mjs", "**/*.cjs"], ...tseslint.configs.disableTypeChecked },
  { files: ["scripts/**/*.mjs", "bench/**/*.mjs", "*.config.*", ".dependency-cruiser.cjs"], languageOptions: { globals: globals.node } },
  { files: ["test/**"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
);
