#!/usr/bin/env node
// Runs an arbitrary TypeScript file through tsx with the same conditions as the CLI, so scripts
// (benchmarks, one-off tools) can load `lib/server` modules: `node scripts/run-ts.mjs FILE.ts [ARGS…]`.
import { spawn } from "node:child_process";
import { resolve } from "node:path";

const [file, ...args] = process.argv.slice(2);
if (!file) {
  console.error("usage: node scripts/run-ts.mjs FILE.ts [ARGS…]");
  process.exit(2);
}

const tsxLoader = import.meta.resolve("tsx");
const child = spawn(process.execPath, ["--conditions=react-server", "--import", tsxLoader, resolve(file), ...args], {
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
