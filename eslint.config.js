// ESLint 9 flat config (`npm run lint`, and a step of `npm test`; zero warnings allowed).
// TypeScript's recommended rules (not type-checked, to stay fast), React hooks, jsx-a11y, import order,
// and the feature boundary of decision 0010: a file of app/features/<name>/ imports ~/components, ~/lib,
// ~/server, its own feature, and another feature only through that feature's index.ts.
// Formatting is Prettier's (eslint-config-prettier turns the stylistic rules off).
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import importX from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const FEATURES_DIR = "app/features";
const features = readdirSync(FEATURES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** How deep feature folders go (0 = files directly in app/features/<name>/), plus room to grow. */
const maxDepth =
  Math.max(
    0,
    ...readdirSync(FEATURES_DIR, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.parentPath.split("/").length - FEATURES_DIR.split("/").length),
  ) + 2;

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * One entry per feature and folder depth: `~/features/<other>/<file>` is refused (only `~/features/<other>`
 * or `~/features/<other>/index`), `~/` outside components/lib/server/features is refused, and so is a
 * relative path that climbs out of the feature (Vite `?raw` imports of static files excepted).
 */
const featureBoundaries = features.flatMap((name) =>
  Array.from({ length: maxDepth + 1 }, (_, depth) => ({
    name: `nika/feature-boundaries/${name}/${depth}`,
    files: [`${FEATURES_DIR}/${name}/${"*/".repeat(depth)}*.{ts,tsx,js,jsx}`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^~/features/(?!${escape(name)}(/|$))[^/]+/(?!index$).+`,
              message: "Another feature is imported only through its index.ts: `~/features/<name>` (export what you need there).",
            },
            {
              regex: "^~/(?!components(/|$)|lib(/|$)|server(/|$)|features/)",
              message: "Features import only ~/components, ~/lib, ~/server and features (decision 0010).",
            },
            {
              regex: `^(\\.\\./){${depth + 1}}(?!${escape(name)}(/|$))(?!.*\\?raw$)`,
              message: "A relative import must not leave the feature; import another feature as `~/features/<name>`.",
            },
          ],
        },
      ],
    },
  })),
);

export default tseslint.config(
  {
    name: "nika/ignores",
    ignores: [
      "build/",
      ".react-router/",
      ".wrangler/",
      ".data/",
      ".cache/",
      "node_modules/",
      "reports/",
      ".stryker-tmp/",
      "test-results/",
      "playwright-report/",
      "bench/results/",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    name: "nika/react",
    files: ["**/*.{jsx,tsx}"],
    ...react.configs.flat.recommended,
    ...react.configs.flat["jsx-runtime"],
    plugins: { react },
    rules: {
      ...react.configs.flat.recommended.rules,
      ...react.configs.flat["jsx-runtime"].rules,
      // Props are typed by TypeScript.
      "react/prop-types": "off",
    },
    settings: { react: { version: "18.3" } },
  },
  {
    // React code lives in app/ (tests/ has Playwright's `use` and vitest helpers named use*, not hooks).
    name: "nika/react-hooks",
    files: ["app/**/*.{js,jsx,ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
    },
  },
  { name: "nika/jsx-a11y", files: ["**/*.{jsx,tsx}"], ...jsxA11y.flatConfigs.recommended },
  {
    name: "nika/jsx-a11y-components",
    files: ["**/*.{jsx,tsx}"],
    // An `autoFocus` prop of our own components is not the DOM attribute; the element that gets it is checked.
    rules: { "jsx-a11y/no-autofocus": ["error", { ignoreNonDOM: true }] },
  },
  {
    name: "nika/imports",
    plugins: { "import-x": importX },
    settings: { "import-x/internal-regex": "^~/" },
    rules: {
      "import-x/order": [
        "error",
        {
          groups: ["builtin", "external", "internal", "parent", ["sibling", "index"]],
          "newlines-between": "never",
          alphabetize: { order: "asc", caseInsensitive: true },
        },
      ],
      "import-x/no-duplicates": "error",
    },
  },
  {
    name: "nika/typescript",
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Playwright reads a fixture's first parameter and needs it destructured, even when empty: `async ({}, use)`.
    name: "nika/playwright",
    files: ["tests/e2e/**", "tests/contract/**"],
    rules: { "no-empty-pattern": "off" },
  },
  {
    name: "nika/globals",
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    name: "nika/service-worker",
    files: ["app/features/pwa/sw.ts"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    // Decision 0010: one body reader and one R2 seam. A route or feature that reads a request body itself
    // (an unguarded `request.formData()` is a 500 on a broken body) or touches the bucket binding fails lint.
    name: "nika/one-way",
    files: ["app/**/*.{ts,tsx}", "server.ts", "load-context.ts"],
    ignores: ["app/server/request.server.ts", "app/server/storage.server.ts", "**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.object.name=/^(request|req)$/][callee.property.name=/^(formData|json|text|arrayBuffer|blob)$/]",
          message: "Read request bodies through ~/server/request.server (parseForm, readFormData, readBytes, readMultipart).",
        },
        {
          selector: "MemberExpression[object.name=/^(request|req)$/][property.name='body']",
          message: "Read request bodies through ~/server/request.server (parseForm, readFormData, readBytes, readMultipart).",
        },
        {
          selector: "MemberExpression[property.name='MEDIA']",
          message: "R2 is reached only through ~/server/storage.server (decision 0005).",
        },
      ],
    },
  },
  {
    // The layers point one way: features use app/server and app/lib, never the reverse.
    name: "nika/server-layer",
    files: ["app/server/**/*.{ts,tsx}", "app/lib/**/*.{ts,tsx}", "app/components/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^~/(features|routes)(/|$)", message: "app/server, app/lib and app/components must not import features or routes." },
          ],
        },
      ],
    },
  },
  ...featureBoundaries,
  prettier,
);
