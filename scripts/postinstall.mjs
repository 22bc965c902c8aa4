// Runs after `npm install`: generates the Prisma client and copies Monaco into public/ so the
// editor is served by the app instead of a CDN. Both work offline.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

// `prisma generate` only checks that a schema engine binary exists; it never runs it. Pointing it
// at any existing file keeps it from trying to download one.
const prismaCli = join(dirname(require.resolve("prisma/package.json")), "build", "index.js");
execFileSync(process.execPath, [prismaCli, "generate"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});

const monacoSource = join(root, "node_modules", "monaco-editor", "min", "vs");
const monacoTarget = join(root, "public", "monaco", "vs");
if (existsSync(monacoTarget)) rmSync(monacoTarget, { recursive: true });
cpSync(monacoSource, monacoTarget, { recursive: true });
console.log("Copied Monaco to public/monaco/vs");
