import type { Command } from "commander";

import { formatDuration, formatRate } from "@/lib/jobs/pace";
import type { JobView } from "@/lib/jobs/types";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { listJobs } from "@/lib/server/jobs/list-jobs";
import { jobQuerySchema } from "@/lib/validation/jobs";

import { exitWithError, usageError, withDatabase } from "./with-database";

/** One job as a line of the table: status, kind, dataset, progress, rate and ETA, who, result. */
function jobLine(job: JobView): string {
  const percent = job.total > 0 ? Math.floor((100 * job.done) / job.total) : 100;
  const pace =
    job.perMinute === null
      ? ""
      : ` · ${formatRate(job.perMinute, job.unit)}${job.etaSeconds === null ? "" : `, ${formatDuration(job.etaSeconds)} left`}`;
  const who = job.startedBy ? (job.startedBy.name ?? job.startedBy.email) : "verity";
  return [
    job.status.toLowerCase().padEnd(9),
    job.kind.padEnd(12),
    (job.dataset ?? "-").padEnd(20),
    `${job.done}/${job.total} ${job.unit} (${percent}%)${pace}`,
    `by ${who} ${job.startedAt.toISOString().slice(0, 16).replace("T", " ")}`,
    job.result + (job.stopReason ? ` — ${job.stopReason}` : ""),
    job.id,
  ].join("  ");
}

/** Registers `verity jobs`: every kind of long work, newest first, as the Jobs page shows it. */
export function registerJobsCommand(program: Command): void {
  program
    .command("jobs")
    .option(
      "--kind <kind>",
      "only this kind: import, verification, evidence, solutions, critic, campaign, release, extension, deletion",
    )
    .option("--status <status>", "only this status: running, paused, cancelled, succeeded, failed")
    .option("--limit <n>", "how many (1–200)", "50")
    .option("--cursor <cursor>", "continue after the previous page (its nextCursor)")
    .option("--json", "print one JSON object {jobs, nextCursor}", false)
    .description(
      "List imports, verification, evidence, solution and critic runs, newest first, with progress, rate, ETA and result.",
    )
    .action(async (options: { kind?: string; status?: string; limit: string; cursor?: string; json: boolean }) => {
      const parsed = jobQuerySchema.safeParse({
        kind: options.kind,
        status: options.status,
        limit: options.limit,
        cursor: options.cursor,
      });
      if (!parsed.success)
        usageError(parsed.error.issues.map((issue) => `--${issue.path.join(".")}: ${issue.message}`).join("; "));
      const page = await withDatabase(() => listJobs({ actor: SYSTEM_ACTOR.cli, query: parsed.data })).catch(
        (error: unknown) => exitWithError(error),
      );
      if (options.json) {
        console.log(JSON.stringify(page));
        return;
      }
      if (page.jobs.length === 0) console.log("No jobs.");
      for (const job of page.jobs) console.log(jobLine(job));
      if (page.nextCursor) console.log(`More: verity jobs --cursor ${page.nextCursor}`);
    });
}
