// The configuration is stated in two places people read — the README's "Configuration" table and
// .env.example — and read in code through one zod schema (lib/server/config.ts); the install and
// test scripts read a few more. This holds them to one list: every variable the product reads is
// in the table and in .env.example, nothing documented is unread, and no TypeScript file but the
// configuration reads a setting from process.env.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { CONFIGURATION_PREFIXES, CONFIGURATION_VARIABLES } from "./config";

const PRODUCTION_FOLDERS = ["app", "components", "lib", "scripts"];
// Harnesses, not the product: their variables (VERITY_TEST_*, VERITY_E2E_*) configure the tests.
const HARNESS = /(\.test\.tsx?$|^lib\/testing\/|^lib\/generated\/|^scripts\/bench\/|^scripts\/test)/;
// Variables other tools read on the product's behalf (next-auth's providers are built from these).
const VARIABLE =
  /\b(VERITY_[A-Z0-9_]+|DATABASE_URL|NEXTAUTH_SECRET|PORT|NEXT_TELEMETRY_DISABLED|GITHUB_[A-Z]+|OIDC_[A-Z_]+)\b/g;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mjs|sh)$/.test(name) && !HARNESS.test(path) ? [path] : [];
  });
}

function variablesReadByTheProduct(): Set<string> {
  const names = new Set<string>();
  for (const file of PRODUCTION_FOLDERS.flatMap(sourceFiles)) {
    for (const [name] of readFileSync(file, "utf8").matchAll(VARIABLE)) names.add(name);
  }
  return names;
}

function variablesInReadmeTable(): Set<string> {
  const readme = readFileSync("README.md", "utf8");
  const section = readme.slice(readme.indexOf("## Configuration"));
  const table = section.slice(0, section.indexOf("\n## ", 1));
  const names = new Set<string>();
  for (const line of table.split("\n").filter((row) => row.startsWith("| `"))) {
    const firstCell = line.split("|")[1];
    for (const [name] of firstCell.matchAll(/[A-Z][A-Z0-9_]+/g)) names.add(name);
  }
  return names;
}

function variablesInEnvExample(): Set<string> {
  const lines = readFileSync(".env.example", "utf8").split("\n");
  return new Set(lines.flatMap((line) => line.match(/^#?\s*([A-Z][A-Z0-9_]+)=/)?.slice(1) ?? []));
}

describe("the configuration", () => {
  it("documents in the README's table every variable the product reads, and only those", () => {
    const read = variablesReadByTheProduct();
    const documented = variablesInReadmeTable();
    expect([...read].filter((name) => !documented.has(name)).sort()).toEqual([]);
    expect([...documented].filter((name) => !read.has(name)).sort()).toEqual([]);
  });

  it("reads every variable a TypeScript file names through the one schema", () => {
    // Named in TypeScript but read by another program: Next.js reads its telemetry switch itself.
    const READ_ELSEWHERE = new Set(["NEXT_TELEMETRY_DISABLED"]);
    const named = new Set<string>();
    for (const file of PRODUCTION_FOLDERS.flatMap(sourceFiles).filter((path) => /\.tsx?$/.test(path))) {
      for (const [name] of readFileSync(file, "utf8").matchAll(VARIABLE)) named.add(name);
    }
    const schema = new Set([...CONFIGURATION_VARIABLES, ...CONFIGURATION_PREFIXES]);
    expect([...named].filter((name) => !schema.has(name) && !READ_ELSEWHERE.has(name)).sort()).toEqual([]);
  });

  it("is read from process.env only by lib/server/config.ts", () => {
    // What may touch process.env elsewhere, and why: the OS search path and whole environments
    // handed to a child process.
    const ALLOWED = [/process\.env\.PATH\b/, /\.\.\.process\.env\b/, /base: process\.env,/, /process\.env's type/];
    const reads = PRODUCTION_FOLDERS.flatMap(sourceFiles)
      .filter((path) => /\.(ts|tsx|mjs)$/.test(path) && path !== join("lib", "server", "config.ts"))
      .flatMap((path) =>
        readFileSync(path, "utf8")
          .split("\n")
          .map((line, index) => ({ where: `${path}:${index + 1}`, line }))
          .filter(({ line }) => line.includes("process.env") && !ALLOWED.some((allowed) => allowed.test(line))),
      )
      .map(({ where, line }) => `${where}: ${line.trim()}`);
    expect(reads).toEqual([]);
  });

  it("lists every documented variable in .env.example", () => {
    const example = variablesInEnvExample();
    // A family read by prefix (VERITY_CRITIC_KEY_*) is shown there by one example of it.
    const isInExample = (name: string) =>
      example.has(name) || (CONFIGURATION_PREFIXES.includes(name) && [...example].some((n) => n.startsWith(name)));
    expect([...variablesInReadmeTable()].filter((name) => !isInExample(name)).sort()).toEqual([]);
  });
});
