// How the integration files run (vitest.config.ts). Two at a time, each process on its own copy of
// the migrated database, in three projects one after the other:
// - the files that touch no process-global state share one import of the app per worker;
// - the files that do (a module mock, the environment, a global, fake timers) get an import each;
// - the files whose opening comment says why, in a line `// Integration: serial — <why>`, run one at
//   a time: what still makes a file serial is what two files on one server or one machine would
//   share: the server's own settings or activity, a fixed port, a timing its assertions depend on.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const SKIPPED_FOLDERS = new Set(["node_modules", ".git", ".next", ".data", "test-results", "test-reports"]);
const SERIAL_MARK = /^\/\/ Integration: serial — \S.*$/m;

function integrationFiles(root: string, folder = root): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : integrationFiles(root, path);
    return entry.name.endsWith(".int.test.ts") ? [relative(root, path)] : [];
  });
}

/** The opening comment of a file: its lines up to the first that is not a comment. */
function openingComment(source: string): string {
  const lines = source.split("\n");
  const end = lines.findIndex((line) => !line.startsWith("//"));
  return lines.slice(0, end === -1 ? lines.length : end).join("\n");
}

/** The integration files (paths relative to `root`, sorted) marked serial in their opening comment. */
export function findSerialIntegrationFiles(root: string): string[] {
  return integrationFiles(root)
    .filter((file) => SERIAL_MARK.test(openingComment(readFileSync(join(root, file), "utf8"))))
    .sort();
}

// What makes a file's state outlive it in a worker that keeps its imports: module mocks, a change
// to the environment (the configuration reads it), globals, fake timers. Reading the environment
// changes nothing: a file that passes it to a child process or reads its seed from it shares.
const PROCESS_GLOBAL = new RegExp(
  [
    /\bvi\.(mock|doMock|stubEnv|stubGlobal|useFakeTimers)\(/,
    /\bsetEnv\(/,
    /\bprocess\.env(\.\w+|\[[^\]]+\])\s*(=(?!=)|\?\?=|\|\|=)/,
    /\bdelete\s+process\.env\b/,
    /\bObject\.assign\(\s*process\.env\b/,
    /\bglobalThis\b/,
  ]
    .map((pattern) => pattern.source)
    .join("|"),
);

/**
 * The integration files (not serial) that touch process-global state and so need an import of
 * their own; the others share one import per worker (vitest.config.ts).
 */
export function findIsolatedIntegrationFiles(root: string): string[] {
  return integrationFiles(root)
    .filter((file) => {
      const source = readFileSync(join(root, file), "utf8");
      return !SERIAL_MARK.test(openingComment(source)) && PROCESS_GLOBAL.test(source);
    })
    .sort();
}
