import type { Command } from "commander";

import { formatSize } from "@/lib/environments/size";
import {
  describeSpec,
  ENVIRONMENT_KIND_FORMATS,
  ENVIRONMENT_KINDS,
  type EnvironmentKind,
  environmentSpecSchema,
} from "@/lib/records/environment-spec";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { buildEnvironmentVersion } from "@/lib/server/environments/build-version";
import { declareEnvironment, type EnvironmentSummary, listEnvironments } from "@/lib/server/environments/environments";

import { endCommand } from "./exit";
import { exitWithError, usageError, withDatabase } from "./with-database";

type Options = { dataset: string } & Partial<Record<EnvironmentKind, string[]>>;

/**
 * Registers `verity environment`: with entries, declares a new version of a dataset's environment and
 * builds it here, printing the package managers' lines as they come; without, lists the versions.
 * Exit codes: 0 built (or listed), 1 the build failed or no such dataset, 2 usage (an entry that is
 * not pinned too).
 */
export function registerEnvironmentCommand(program: Command): void {
  const command = program
    .command("environment")
    .requiredOption("--dataset <name>", "dataset whose environment it is")
    .description(
      "Build a new version of a dataset's environment (the extra dependencies its runs mount at /env), every entry pinned; it is used from the moment it builds, and a failed build leaves the version in use. With no entry, list the versions.",
    );
  for (const kind of ENVIRONMENT_KINDS)
    command.option(
      `--${kind} <entries...>`,
      `${ENVIRONMENT_KIND_FORMATS[kind].label}, e.g. ${ENVIRONMENT_KIND_FORMATS[kind].example}`,
    );
  command.action(async (options: Options) => {
    const spec = Object.fromEntries(ENVIRONMENT_KINDS.map((kind) => [kind, options[kind] ?? []]));
    if (ENVIRONMENT_KINDS.every((kind) => spec[kind].length === 0)) return listVersions(options.dataset);
    const parsed = environmentSpecSchema.safeParse(spec);
    if (!parsed.success)
      usageError(
        parsed.error.issues
          .map((issue) => (issue.path.length ? `--${String(issue.path[0])}: ${issue.message}` : issue.message))
          .join("; "),
      );
    const built = await withDatabase(async () => {
      const declared = await declareEnvironment({
        actor: SYSTEM_ACTOR.cli,
        datasetName: options.dataset,
        spec: parsed.data,
      });
      console.log(`version ${declared.version} of "${options.dataset}": building ${describeSpec(parsed.data)}`);
      const summary = await buildEnvironmentVersion(declared.id, (line) => console.log(line));
      const { inUse } = await listEnvironments({ actor: SYSTEM_ACTOR.cli, datasetName: options.dataset });
      return { summary, inUse };
    }).catch((error: unknown) => exitWithError(error));
    const { summary, inUse } = built;
    if (summary.status === "READY") {
      console.log(`version ${summary.version} ready (${formatSize(summary.sizeBytes ?? 0)})`);
      return;
    }
    console.error(
      `error: version ${summary.version} failed: ${summary.error ?? "no reason given"} (${inUse === null ? "no version is in use" : `version ${inUse} stays in use`})`,
    );
    endCommand(1);
  });
}

/** Every version, newest first, a line each (and a failed one's error below it). */
async function listVersions(datasetName: string): Promise<void> {
  const versions = await withDatabase(async () => {
    const all: EnvironmentSummary[] = [];
    let before: number | undefined;
    do {
      const page = await listEnvironments({ actor: SYSTEM_ACTOR.cli, datasetName, before });
      all.push(...page.versions);
      before = page.nextBefore ?? undefined;
    } while (before !== undefined);
    return all;
  }).catch((error: unknown) => exitWithError(error));
  if (versions.length === 0) {
    console.log(`"${datasetName}" has no environment: its runs see the sandbox's own libraries only.`);
    return;
  }
  for (const version of versions) {
    const details = [
      `v${version.version}`,
      version.status.toLowerCase() + (version.isInUse ? " (in use)" : ""),
      version.spec ? describeSpec(version.spec) : "",
      version.sizeBytes !== null ? formatSize(version.sizeBytes) : "",
      version.createdBy ?? "",
      (version.finishedAt ?? version.createdAt).toISOString().slice(0, 16).replace("T", " ") + " UTC",
    ];
    console.log(details.filter((detail) => detail !== "").join("  "));
    if (version.error) console.log(`    ${version.error}`);
  }
}
