// The permission rule of docs/architecture.md, checked on the source: every exported server function
// that acts for somebody (it takes an `actor`) calls `assertCan` or hands the actor to a function
// that does, and routes, pages, actions and CLI commands reach feature code only through such
// functions, or through the few unguarded ones listed below with the reason each is safe.
import fs from "node:fs";
import path from "node:path";

import ts from "typescript";
import { describe, expect, it } from "vitest";

/** Folders that are infrastructure, not features: they take no actor and decide no permission. */
const INFRASTRUCTURE = /^lib\/server\/(db|sandbox)\//;
/** The permission machinery itself: the table, the guard and the visibility rule. */
const isPermissionMachinery = (id: string) => /^lib\/server\/auth\/(permissions|guard|visibility)#/.test(id);
/**
 * A feature's `queries.ts`: the SQL its operation files share (docs/architecture.md). Its functions
 * may take the actor for whose rows to read (their languages, their assignments) without checking a
 * permission: the operation that calls them checks it, and app/ and scripts/commands/ may not call
 * them (the third rule below).
 */
const isSharedQuery = (id: string) => /^lib\/server\/[^/]+\/queries#/.test(id);

/** Unguarded functions that app/ and scripts/commands/ may call, with why each is safe. */
const ALLOWED_UNGUARDED: Record<string, string> = {
  // Turning a request into an actor comes before any permission can be checked.
  "lib/server/auth/actor#getSessionActor": "resolves the session into an actor",
  "lib/server/auth/require-actor#requirePageActor": "resolves the session or redirects to sign-in",
  "lib/server/users/users#findActorByEmail": "the CLI names the person it acts as",
  "lib/server/users/users#countUsers": "whether the first admin is still to be made (the sign-in page and start-up)",
  "lib/server/users/users#createFirstAdmin": "refuses once any user exists, in the same transaction",
  "lib/server/auth/options#externalSignInOptions": "which sign-in providers are configured",
  // Public flows whose secret is the permission: the invitation token.
  "lib/server/invitations/invitations#findOpenInvitation": "looked up by the token's hash",
  "lib/server/invitations/invitations#acceptInvitation": "looked up by the token's hash, once",
  // Work on what a guarded call just returned.
  "lib/server/environments/build-version#buildEnvironmentVersion":
    "builds the version the caller has just declared through declareEnvironment (datasets:verify)",
  "lib/server/releases/release-queue#runReleaseBuild":
    "`verity release create` builds the release it has just reserved through cutRelease (releases:write)",
  // Request plumbing: no data of anyone.
  "lib/server/http#pathSegment": "parses a path segment",
  "lib/server/http#parseSearchParams": "parses query parameters with a zod schema",
  "lib/server/http#readJson": "reads a request body",
  "lib/server/http#readOptionalJson": "reads a request body that may be left out",
  "lib/server/http#readBody": "reads a request body",
  "lib/server/http#limitedBody": "caps a request body",
  "lib/server/http#assertContentLength": "caps a request body",
  "lib/server/http#errorResponse": "formats an error",
  "lib/server/http#answer": "formats a route's JSON answer, typed by the API catalog",
  "lib/server/http#isDeliberateNavigation": "reads request headers",
  "lib/server/action#createPublicAction": "the wrapper of the sign-in and invitation actions",
  "lib/server/not-found#orNotFound": "maps NOT_FOUND to the page's 404",
  "lib/server/config#config": "the configuration",
  "lib/server/config#settleConfig": "start-up settles the database URL and session secret",
  "lib/server/runs/run-record#sandboxUnavailableNote": "a sentence about a language without a toolchain",
  // The health endpoint: whether workers beat and the sandbox is up, no record data (docs/security.md).
  "lib/server/workers/heartbeats#listWorkers": "worker liveness for /api/health",
  "lib/server/workers/status#sandboxHealth": "sandbox liveness for /api/health",
  // Processes: start and stop the workers, which act as the named worker system actor.
  "lib/server/critics/jobs#startCriticWorkers": "starts workers",
  "lib/server/verification/jobs#startVerificationWorkers": "starts workers",
  "lib/server/verification/jobs#stopVerificationWorkers": "stops workers",
  "lib/server/workers/boss#stopBoss": "stops the job queue",
  "lib/server/imports/imports#failInterruptedImports": "start-up marks imports a crash interrupted",
  "lib/server/reports/exports#findCampaignIdByName": "the CLI's name lookup; the report it feeds is guarded",
  "lib/server/imports/imports#resolveImportMapping": "parses a field mapping's name or JSON; no data of anyone",
  "lib/server/releases/build-release#sweepReleaseTempFolders": "start-up removes old temporary release folders",
};

type ServerFunction = { id: string; takesActor: boolean; body: ts.Node; firstParameter: string };

function sourceFiles(folder: string): string[] {
  return fs
    .readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

const parse = (file: string) => ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);

/** "lib/server/x/y" for an import of "@/lib/server/x/y" or "./y" from a file in lib/server/x. */
function moduleOf(specifier: string, fromFile: string): string | null {
  if (specifier.startsWith("@/")) return specifier.slice(2);
  if (specifier.startsWith(".")) return path.join(path.dirname(fromFile), specifier);
  return null;
}

/** Local names of a file's value imports, as "module#name". */
function importedNames(source: ts.SourceFile): Map<string, string> {
  const names = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || statement.importClause?.isTypeOnly) continue;
    const modulePath = moduleOf((statement.moduleSpecifier as ts.StringLiteral).text, source.fileName);
    const bindings = statement.importClause?.namedBindings;
    if (!modulePath || !bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements)
      if (!element.isTypeOnly)
        names.set(element.name.text, `${modulePath}#${(element.propertyName ?? element.name).text}`);
  }
  return names;
}

/** The top-level functions of the server's feature files (exported or not), and which are exported. */
function serverFunctions() {
  const functions = new Map<string, ServerFunction & { exported: boolean; calls: Map<string, string> }>();
  for (const file of sourceFiles("lib/server").filter((file) => !INFRASTRUCTURE.test(file))) {
    const source = parse(file);
    const modulePath = file.replace(/\.tsx?$/, "");
    const imports = importedNames(source);
    for (const statement of source.statements) {
      if (!ts.isFunctionDeclaration(statement) || !statement.body || !statement.name) continue;
      const parameters = statement.parameters.map((parameter) => parameter.getText());
      const calls = new Map(imports);
      functions.set(`${modulePath}#${statement.name.text}`, {
        id: `${modulePath}#${statement.name.text}`,
        exported: statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword) ?? false,
        takesActor: parameters.some((parameter) => /\bactor\b/.test(parameter)),
        firstParameter: statement.parameters[0]?.name.getText() ?? "",
        body: statement.body,
        calls,
      });
    }
    // Functions of the same file are called by their own name.
    for (const fn of functions.values())
      if (fn.id.startsWith(`${modulePath}#`))
        for (const other of functions.keys())
          if (other.startsWith(`${modulePath}#`)) fn.calls.set(other.split("#")[1], other);
  }
  return functions;
}

/** Calls in `body`: the callee's name and its arguments' text. */
function callsIn(body: ts.Node): { callee: string; argumentsText: string }[] {
  const calls: { callee: string; argumentsText: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression))
      calls.push({ callee: node.expression.text, argumentsText: node.arguments.map((a) => a.getText()).join(",") });
    ts.forEachChild(node, visit);
  };
  visit(body);
  return calls;
}

/** Functions that check a permission: they call assertCan, or pass their actor to one that does. */
function guardedFunctions(functions: ReturnType<typeof serverFunctions>): Set<string> {
  const guarded = new Set<string>();
  for (let changed = true; changed;) {
    changed = false;
    for (const fn of functions.values()) {
      if (guarded.has(fn.id)) continue;
      const passesActorOn = callsIn(fn.body).some(({ callee, argumentsText }) => {
        const target = fn.calls.get(callee);
        const handsOver =
          /\bactor\b/.test(argumentsText) ||
          (fn.firstParameter !== "" && new RegExp(`\\b${fn.firstParameter}\\b`).test(argumentsText));
        return callee === "assertCan" || (target !== undefined && guarded.has(target) && handsOver);
      });
      if (passesActorOn) {
        guarded.add(fn.id);
        changed = true;
      }
    }
  }
  return guarded;
}

const functions = serverFunctions();
const guarded = guardedFunctions(functions);

describe("the permission rule", () => {
  it("finds the functions it checks (a scan that found none would pass everything)", () => {
    expect(functions.size).toBeGreaterThan(200);
    expect(guarded.has("lib/server/campaigns/list-categories#listCategories")).toBe(true);
    expect(guarded.has("lib/server/solvers/jobs#importAndRunSolutions")).toBe(true);
    expect(guarded.has("lib/server/runs/runs#latestVerificationRuns")).toBe(false);
  });

  it("every exported function that takes an actor checks a permission or hands the actor to one that does", () => {
    const unchecked = [...functions.values()]
      .filter((fn) => fn.exported && fn.takesActor && !guarded.has(fn.id))
      .filter((fn) => !isPermissionMachinery(fn.id) && !isSharedQuery(fn.id))
      .map((fn) => fn.id);
    expect(unchecked).toEqual([]);
  });

  it("routes, pages, actions and CLI commands call feature code only through guarded functions", () => {
    const reached = new Map<string, string[]>();
    for (const file of [...sourceFiles("app"), ...sourceFiles("scripts/commands")])
      for (const id of importedNames(parse(file)).values())
        if (functions.has(id) && !guarded.has(id) && !isPermissionMachinery(id))
          reached.set(id, [...(reached.get(id) ?? []), file]);
    const unexplained = [...reached.keys()].filter((id) => !(id in ALLOWED_UNGUARDED));
    expect(unexplained).toEqual([]);
    // An entry nothing imports any more is a permission nobody needs: remove it.
    expect(Object.keys(ALLOWED_UNGUARDED).filter((id) => !reached.has(id))).toEqual([]);
  });
});
