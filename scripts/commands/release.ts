import { resolve } from "node:path";

import type { Command } from "commander";

import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { cutRelease } from "@/lib/server/releases/cut-release";
import { findRelease } from "@/lib/server/releases/queries";
import { runReleaseBuild } from "@/lib/server/releases/release-queue";
import { diffNamedReleases, writeReleaseFolder } from "@/lib/server/releases/build-release";
import { releaseNameSchema } from "@/lib/validation/releases";

import { exitWithError, usageError, withDatabase } from "./with-database";
import { countOf } from "@/lib/format/count";

function releaseName(name: string): string {
  const parsed = releaseNameSchema.safeParse(name);
  if (!parsed.success) usageError(parsed.error.issues[0].message);
  return parsed.data;
}

/** Registers `verity release create|export|diff`. */
export function registerReleaseCommands(program: Command): void {
  const release = program
    .command("release")
    .description("Named, immutable releases of a dataset: which record revisions are in, which are out and why.");

  release
    .command("create")
    .requiredOption("--dataset <name>", "dataset to release")
    .requiredOption("--name <name>", "the release's name (v1, release_v2, …); a name the dataset has is refused")
    .option("--out <dir>", "also write the release folder here (data.jsonl, excluded.jsonl, README.md, manifest.json)")
    .option("--require-executable", "leave out records whose solution does not pass both tests in the sandbox")
    .option("--json", "end with one JSON line: name, records, excluded, revised, path")
    .description("Cut a release of a dataset: its records, labels, figures and method are stored now and never change.")
    .action(
      async (options: { dataset: string; name: string; out?: string; requireExecutable?: boolean; json?: boolean }) => {
        const name = releaseName(options.name);
        const path = options.out ? resolve(options.out) : null;
        const cut = await withDatabase(async () => {
          const actor = SYSTEM_ACTOR.cli;
          const created = await cutRelease({
            actor,
            datasetName: options.dataset,
            name,
            requireExecutable: Boolean(options.requireExecutable),
          });
          // A large dataset's release is queued for a worker; this command waits for it by building
          // it here (whichever of the two comes first builds it, the other finds it built).
          if (created.status === "BUILDING") await runReleaseBuild({ releaseId: created.id });
          const { summary } = await findRelease({ actor, datasetName: options.dataset, name });
          if (path) await writeReleaseFolder({ actor, datasetName: options.dataset, name, outDir: path });
          return summary;
        }).catch((error: unknown) => exitWithError(error));
        const summary = { name: cut.name, records: cut.records, excluded: cut.excluded, revised: cut.revised, path };
        if (options.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
        else
          console.log(
            `Release ${cut.name}: ${countOf(cut.records, "record")} in (${cut.revised} revised), ${cut.excluded} out.${path ? ` Written to ${path}.` : ""}`,
          );
      },
    );

  release
    .command("export")
    .requiredOption("--dataset <name>", "the release's dataset")
    .requiredOption("--name <name>", "the release")
    .requiredOption("--out <dir>", "folder to write (created if missing)")
    .option("--json", "end with one JSON line: name, path and the files with their sha256")
    .description("Write a release as a folder: data.jsonl, excluded.jsonl, README.md (dataset card), manifest.json.")
    .action(async (options: { dataset: string; name: string; out: string; json?: boolean }) => {
      const name = releaseName(options.name);
      const path = resolve(options.out);
      const { files } = await withDatabase(() =>
        writeReleaseFolder({ actor: SYSTEM_ACTOR.cli, datasetName: options.dataset, name, outDir: path }),
      ).catch((error: unknown) => exitWithError(error));
      if (options.json) process.stdout.write(`${JSON.stringify({ name, path, files })}\n`);
      else console.log(`Wrote ${files.map((file) => file.path).join(", ")} to ${path}`);
    });

  release
    .command("diff")
    .requiredOption("--dataset <name>", "the releases' dataset")
    .argument("<a>", "the earlier release")
    .argument("<b>", "the later release")
    .option("--json", "one JSON line: added, removed, revised")
    .description("List the records added, removed and revised from release A to release B.")
    .action(async (a: string, b: string, options: { dataset: string; json?: boolean }) => {
      const diff = await withDatabase(() =>
        diffNamedReleases({
          actor: SYSTEM_ACTOR.cli,
          datasetName: options.dataset,
          a: releaseName(a),
          b: releaseName(b),
        }),
      ).catch((error: unknown) => exitWithError(error));
      if (options.json) process.stdout.write(`${JSON.stringify(diff)}\n`);
      else {
        const show = (record: { key: string; line: number; language: string }) =>
          `${record.language} line ${record.line} (${record.key.slice(0, 12)})`;
        for (const record of diff.added) console.log(`+ ${show(record)}`);
        for (const record of diff.removed) console.log(`- ${show(record)}`);
        for (const record of diff.revised)
          console.log(`~ ${show(record)}: revision ${record.fromRevision} → ${record.revision}`);
        console.log(`${diff.added.length} added, ${diff.removed.length} removed, ${diff.revised.length} revised`);
      }
    });
}
