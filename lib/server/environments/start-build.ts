import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import type { Actor, SystemActor } from "@/lib/server/auth/permissions";

import { buildEnvironmentVersion } from "./build-version";
import { declareEnvironment } from "./environments";

/**
 * Declares a new environment version and builds it in the background, in this server process (the
 * web page and the REST route; the CLI builds inline instead). The build writes its log as it goes
 * and never throws for a failed build; anything else it throws is logged here, and its version then
 * reads as cut off at the next declaration. Scope: datasets:verify.
 */
export async function startEnvironmentBuild({
  actor,
  datasetName,
  spec,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
  spec: unknown;
}): Promise<{ dataset: string; version: number; status: "BUILDING" }> {
  assertCan(actor, "datasets:verify");
  const declared = await declareEnvironment({ actor, datasetName, spec });
  void buildEnvironmentVersion(declared.id).catch((error: unknown) =>
    console.error(
      `environment: version ${declared.version} of "${datasetName}" could not be built: ${error instanceof Error ? error.message : String(error)}`,
    ),
  );
  return { dataset: datasetName, version: declared.version, status: "BUILDING" };
}
