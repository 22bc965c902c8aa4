// The README and docs/ name files, scripts and each other; a rename leaves them pointing at nothing.
// This holds them to the repository: every relative link (and its #heading) resolves, every code
// path names a file or folder that exists, and every `npm run` names a script of package.json.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

import { describe, expect, it } from "vitest";

const SKIPPED_FOLDERS = new Set(["node_modules", ".git", ".next", ".data", "test-reports", "playwright-report"]);

function repositoryFiles(folder = "."): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = folder === "." ? entry.name : join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : [`${path}/`, ...repositoryFiles(path)];
    return [path];
  });
}

const files = repositoryFiles();
const paths = new Set(files.map((file) => file.replace(/\/$/, "")));
const DOCUMENTS = ["README.md", ...files.filter((file) => /^docs\/[^/]+\.md$/.test(file))];
const scripts = Object.keys(JSON.parse(readFileSync("package.json", "utf8")).scripts as Record<string, string>);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function headingsOf(document: string): Set<string> {
  const text = readFileSync(document, "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => slugOf(heading)));
}

/** The document's text outside fenced code blocks, with each line's number. */
function linesOf(document: string): Array<{ line: number; text: string }> {
  let isFenced = false;
  return readFileSync(document, "utf8")
    .split("\n")
    .flatMap((text, index) => {
      if (text.startsWith("```")) isFenced = !isFenced;
      return isFenced || text.startsWith("```") ? [] : [{ line: index + 1, text }];
    });
}

const REPOSITORY_ROOTS = /^(app|components|lib|scripts|e2e|prisma|cluster|docs|\.ci)\//;
const SOURCE_FILE = /\.(ts|tsx|mjs|cjs|sql|prisma)$/;
// Files a sandboxed run writes into its job folder (docs/sandbox.md), not files of this repository.
const JOB_FILES = new Set(["test.ts"]);

/**
 * Whether a path written in a document names something here: from the root, or the end of a path; a
 * module as imported (`lib/server/action`) names its .ts file.
 */
function isKnownPath(path: string): boolean {
  const bare = path.replace(/\/$/, "");
  if ([bare, `${bare}.ts`, `${bare}.tsx`].some((candidate) => paths.has(candidate))) return true;
  if (REPOSITORY_ROOTS.test(bare)) return false;
  return files.some((file) => file.replace(/\/$/, "").endsWith(`/${bare}`));
}

describe("the README and docs/", () => {
  it("link only to files that exist, and to headings those files have", () => {
    const broken: string[] = [];
    for (const document of DOCUMENTS) {
      for (const { line, text } of linesOf(document)) {
        for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
          if (/^[a-z]+:/.test(target)) continue;
          const [file, anchor] = target.split("#");
          const resolved = file ? normalize(join(dirname(document), file)) : document;
          if (!paths.has(resolved)) broken.push(`${document}:${line}: ${target} (no such file)`);
          else if (anchor && resolved.endsWith(".md") && !headingsOf(resolved).has(anchor)) {
            broken.push(`${document}:${line}: ${target} (no such heading)`);
          }
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("name in code only source files and folders that exist", () => {
    const missing: string[] = [];
    for (const document of DOCUMENTS) {
      for (const { line, text } of linesOf(document)) {
        for (const [, code] of text.matchAll(/`([^`]+)`/g)) {
          // Patterns and placeholders (`lib/<domain>/`, `app/api/v1/…/route.ts`, `components/report/*`) name no one file.
          if (/[…*{}<>$ ]/.test(code)) continue;
          const isRepositoryPath = REPOSITORY_ROOTS.test(code);
          if ((!isRepositoryPath && !SOURCE_FILE.test(code)) || JOB_FILES.has(code)) continue;
          if (!isKnownPath(code)) missing.push(`${document}:${line}: ${code}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("run only scripts that package.json has", () => {
    const unknown: string[] = [];
    for (const document of DOCUMENTS) {
      for (const { line, text } of linesOf(document)) {
        for (const [, name] of text.matchAll(/npm run (?:--silent )?([a-z][\w:-]*)/g)) {
          if (!name.endsWith(":") && !scripts.includes(name)) unknown.push(`${document}:${line}: npm run ${name}`);
        }
      }
    }
    expect(unknown).toEqual([]);
  });
});
