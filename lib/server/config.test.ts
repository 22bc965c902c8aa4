// The configuration is stated in two places people read — the README's "Configuration" table and
// .env.example — and read in code through the zod schemas (lib/server/config.ts, the sandbox's
// lib/server/sandbox/config.ts) and a few direct reads. This holds the three to one list: every
// variable the product reads is in the table and in .env.example, and nothing documented is unread.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

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

  it("lists every documented variable in .env.example", () => {
    const example = variablesInEnvExample();
    expect([...variablesInReadmeTable()].filter((name) => !example.has(name)).sort()).toEqual([]);
  });
});
