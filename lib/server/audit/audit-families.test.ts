// The audit page's filter offers every family of event the app writes: each action named in the
// source (`action: "revision.propose"`, `action: \`critic.run.${…}\``) starts with one of the
// filter's prefixes, and each target type written is one the filter offers. A new family of
// events cannot go missing from the filter unnoticed.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { ACTION_PREFIXES, parseAuditQuery, TARGET_TYPES } from "@/components/audit/audit-query";

const ROOT = join(import.meta.dirname, "..", "..", "..");

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.includes("generated"))
    .map((file) => join(ROOT, folder, file));
}

const written = sourceFiles("lib/server")
  .concat(sourceFiles("app"))
  .map((file) => readFileSync(file, "utf8"))
  .flatMap((text) => [
    ...[...text.matchAll(/action: ["`]([a-z]+\.[a-z._-]*)/g)].map((match) => ({ kind: "action", name: match[1] })),
    ...[...text.matchAll(/targetType: "([A-Za-z]+)"/g)].map((match) => ({ kind: "target", name: match[1] })),
  ]);

describe("the audit filter", () => {
  it("reads the source's audit writes (the check below is not empty)", () => {
    expect(written.filter((entry) => entry.kind === "action").length).toBeGreaterThan(20);
  });

  it("offers a prefix for every action written: critic, revision, release, gold and solution events too", () => {
    const actions = [...new Set(written.filter((entry) => entry.kind === "action").map((entry) => entry.name))];
    const uncovered = actions.filter((action) => !ACTION_PREFIXES.some((prefix) => action.startsWith(prefix)));
    expect(uncovered).toEqual([]);
    for (const prefix of ["critic.", "revision.", "release.", "gold.", "dataset.solutions."])
      expect(parseAuditQuery({ action: prefix })).toEqual({ action: prefix });
  });

  it("offers every target type written", () => {
    const targets = [...new Set(written.filter((entry) => entry.kind === "target").map((entry) => entry.name))];
    expect(targets.filter((target) => !(TARGET_TYPES as readonly string[]).includes(target))).toEqual([]);
  });
});
