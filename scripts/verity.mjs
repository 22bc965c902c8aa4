#!/usr/bin/env node
// Entry point of `npx verity`: runs the TypeScript CLI through tsx.
// `--conditions=react-server` lets the CLI load the same `lib/server` modules the app uses
// (they import "server-only", which is empty under that condition).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const tsxLoader = import.meta.resolve("tsx");
const cli = fileURLToPath(new URL("./cli.ts", import.meta.url));

const child = spawn(
  process.execPath,
  ["--conditions=react-server", "--import", tsxLoader, cli, ...process.argv.slice(2)],
  { stdio: "inherit" },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
