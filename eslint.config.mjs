import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      // `const { secret: _secret, ...rest } = row` drops a field on purpose.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  {
    // The UI writes through one shape: a server action made with createAction, which the page passes
    // to the client component as a prop. A component that imported from app/ would be tied to one
    // route, and one that fetched the REST API would be a second write path (hand-cast JSON, zod's
    // messages repeated). REST is for scripts; both call the same service function. The import upload
    // (XMLHttpRequest, for its progress events) and download links are the deliberate exceptions.
    files: ["components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: "^(@/|(\\.\\./)+)app(/|$)", message: "Components do not import from app/: let the page pass the server action (or value) as a prop." }] }],
      "no-restricted-syntax": [
        "error",
        { selector: "CallExpression[callee.name='fetch'], CallExpression[callee.property.name='fetch']", message: "Components do not fetch: write through a server action the page passes as a prop; read in the server component." },
      ],
    },
  },
  {
    // converted in the loop branch: these workspace components still fetch the REST API.
    files: ["components/workspace/label-form.tsx", "components/workspace/skip-control.tsx", "components/workspace/lease-status.tsx", "components/workspace/latest-run.tsx", "components/workspace/scratch-runner.tsx"],
    rules: { "no-restricted-syntax": "off" },
  },
  globalIgnores([".next/**", ".data/**", "node_modules/**", "lib/generated/**", "public/monaco/**", "test-results/**", "playwright-report/**", "next-env.d.ts"]),
]);
