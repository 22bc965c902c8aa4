import "server-only";

import { readFile, realpath } from "node:fs/promises";

import { JUNIT_CONSOLE_JAR } from "./recipes/java";
import { RUST_EXTERN_ARGS } from "./recipes/rust";
import type { InstalledExtras } from "./reference-versions";

/** Reads what the sandbox install put beside the toolchains (see withInstalledExtras). */
export async function readInstalledExtras(): Promise<InstalledExtras> {
  const [junitConsoleJar, rustExternArgs] = await Promise.all([
    realpath(JUNIT_CONSOLE_JAR).catch(() => null),
    readFile(RUST_EXTERN_ARGS, "utf8").catch(() => null),
  ]);
  return { junitConsoleJar, rustExternArgs };
}
