import "server-only";

import { config } from "@/lib/server/config";

import { buildEnvironment } from "@/lib/server/sandbox/environment-build";

import {
  type EnvironmentSummary,
  findEnvironmentToBuild,
  finishEnvironmentBuild,
  writeEnvironmentLog,
} from "./environments";

/** The log is written this often while a build runs (QUIET_BUILD_MS reads a longer silence as cut off). */
const LOG_FLUSH_MS = 2_000;

/**
 * Builds a declared environment version (declareEnvironment): the package managers' output goes
 * into its log as it comes, and the version ends READY (the dataset's runs mount it from then on) or
 * FAILED with the tool's words (the previous version stays in use). Never throws for a failed build.
 */
export async function buildEnvironmentVersion(
  id: string,
  onLine: (line: string) => void = () => undefined,
): Promise<EnvironmentSummary> {
  const { spec, dir } = await findEnvironmentToBuild(id);
  let log = "";
  let written = Promise.resolve();
  const timer = setInterval(() => {
    written = written
      .then(() => writeEnvironmentLog(id, log))
      .catch((error: unknown) => console.error(`environment: the build log could not be written: ${String(error)}`));
  }, LOG_FLUSH_MS);
  try {
    const built = await buildEnvironment({
      spec,
      dir,
      registries: config().sandbox.registries,
      log: (line) => {
        log += `${line}\n`;
        onLine(line);
      },
    });
    clearInterval(timer);
    await written;
    return await finishEnvironmentBuild(id, { lock: built.lock, sizeBytes: built.sizeBytes, log });
  } catch (error) {
    clearInterval(timer);
    await written;
    const message = error instanceof Error ? error.message : String(error);
    onLine(`build failed: ${message}`);
    return finishEnvironmentBuild(id, { error: message, log: `${log}build failed: ${message}\n` });
  }
}
