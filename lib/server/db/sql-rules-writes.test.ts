// A write to a table with triggers says beside it which prisma/sql files run (docs/architecture.md,
// "SQL rules"). This finds the writes — Prisma's create/update/upsert/delete on the table's model
// and raw INSERT/UPDATE/DELETE — and asks for a comment naming prisma/sql in the lines just above;
// and every file such a comment names must exist, so a renamed rule cannot leave comments behind.
// Triggers that watch chosen columns (`UPDATE OF`: Campaign, Record's updates) are left to review:
// only some of the updates run anything, and their comments are checked for existing files too.
// BEFORE triggers count as AFTER ones do.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { readRuleFiles } from "./sql-rules";

const SQL_DIR = join(process.cwd(), "prisma", "sql");
// A raw statement may sit a few lines into its template (after a WITH); the comment is above the call.
const COMMENT_WINDOW = 10;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

const FILES = [...sourceFiles("lib/server"), ...sourceFiles("app"), ...sourceFiles("scripts/commands")];

// The tables some write of any shape sets a trigger off on, from the trigger files' statements.
function tablesWithTriggers(): { table: string; events: Set<string> }[] {
  const byTable = new Map<string, Set<string>>();
  for (const file of readRuleFiles().filter((rule) => rule.kind === "trigger")) {
    // AFTER or BEFORE, one event or several joined by OR (BEFORE INSERT OR UPDATE OF a, b).
    const clause =
      /\b(?:AFTER|BEFORE)\s+((?:INSERT|DELETE|UPDATE)(?:\s+OF\s+[\w", ]+?)?(?:\s+OR\s+(?:INSERT|DELETE|UPDATE)(?:\s+OF\s+[\w", ]+?)?)*)\s+ON\b/i.exec(
        file.text,
      );
    expect(clause, `${file.path} states its event`).not.toBeNull();
    const events = byTable.get(file.table!) ?? new Set<string>();
    for (const event of clause![1].split(/\s+OR\s+/i)) {
      const [, name, columns] = /^(INSERT|DELETE|UPDATE)(\s+OF\b)?/i.exec(event.trim())!;
      if (!columns) events.add(name.toUpperCase());
    }
    if (events.size > 0) byTable.set(file.table!, events);
  }
  return [...byTable].map(([table, events]) => ({ table, events }));
}

const PRISMA_EVENTS: Record<string, string[]> = {
  create: ["INSERT"],
  createMany: ["INSERT"],
  createManyAndReturn: ["INSERT"],
  update: ["UPDATE"],
  updateMany: ["UPDATE"],
  updateManyAndReturn: ["UPDATE"],
  upsert: ["INSERT", "UPDATE"],
  delete: ["DELETE"],
  deleteMany: ["DELETE"],
};

type Write = { where: string; line: number; text: string };

function writesTo(table: string, events: Set<string>): Write[] {
  const model = table[0].toLowerCase() + table.slice(1);
  const prisma = new RegExp(`\\.${model}\\.(${Object.keys(PRISMA_EVENTS).join("|")})\\(`);
  const raw = new RegExp(`\\b(INSERT INTO|UPDATE|DELETE FROM)\\s+"${table}"`);
  const found: Write[] = [];
  for (const path of FILES) {
    const lines = readFileSync(path, "utf8").split("\n");
    lines.forEach((text, index) => {
      if (text.trim().startsWith("//")) return;
      const call = prisma.exec(text);
      const statement = raw.exec(text);
      const fires = call
        ? PRISMA_EVENTS[call[1]].some((event) => events.has(event))
        : statement
          ? events.has(statement[1].split(" ")[0])
          : false;
      if (fires) found.push({ where: `${path}:${index + 1}`, line: index, text: text.trim() });
    });
  }
  return found;
}

function hasRuleComment(path: string, line: number): boolean {
  const lines = readFileSync(path, "utf8").split("\n");
  return lines.slice(Math.max(0, line - COMMENT_WINDOW), line).some((text) => /\/\/.*prisma\/sql/.test(text));
}

describe("writes to tables with triggers", () => {
  it("each say beside them which prisma/sql files run", () => {
    const tables = tablesWithTriggers();
    expect(tables.map(({ table }) => table)).toContain("Annotation");
    const writes = tables.flatMap(({ table, events }) => writesTo(table, events));
    // Some of the writes the rule is about, so a broken search cannot pass by finding nothing.
    expect(writes.some((write) => write.where.startsWith("lib/server/labelling/submit-annotation.ts"))).toBe(true);
    expect(writes.length).toBeGreaterThan(10);
    const silent = writes.filter((write) => !hasRuleComment(write.where.split(":")[0], write.line));
    expect(
      silent.map((write) => `${write.where}  ${write.text}`),
      "add a comment above the write naming the prisma/sql files it runs",
    ).toEqual([]);
  });

  it("name only files that exist", () => {
    const missing: string[] = [];
    let named = 0;
    for (const path of FILES) {
      for (const comment of readFileSync(path, "utf8").match(/\/\/.*prisma\/sql.*(\n\s*\/\/.*)*/g) ?? []) {
        for (const [name] of comment.matchAll(/(?:(?:functions|triggers)\/)?[\w.*]+(?:\{[\w,]+\}[\w]*)?\.sql\b/g)) {
          named += 1;
          if (!resolvesToFiles(name)) missing.push(`${path}: ${name}`);
        }
      }
    }
    expect(named).toBeGreaterThan(30);
    expect(missing, "a comment names a prisma/sql file that does not exist").toEqual([]);
  });
});

// A name in a comment: functions/x.sql, triggers/T.t.sql, a bare x.sql or T.t.sql (in a list after
// the first), a * wildcard, or one {a,b} alternation (triggers/T.T_{insert,update}.sql).
function resolvesToFiles(name: string): boolean {
  const alternation = /\{([\w,]+)\}/.exec(name);
  if (alternation)
    return alternation[1].split(",").every((choice) => resolvesToFiles(name.replace(alternation[0], choice)));
  if (!name.includes("/")) return resolvesToFiles(`functions/${name}`) || resolvesToFiles(`triggers/${name}`);
  const path = name;
  if (!path.includes("*")) return existsSync(join(SQL_DIR, path));
  const [folder, pattern] = path.split("/");
  const match = new RegExp(`^${pattern.replaceAll(".", "\\.").replaceAll("*", ".*")}$`);
  return readdirSync(join(SQL_DIR, folder)).some((file) => match.test(file));
}
