import Link from "next/link";

import { BatchBar } from "@/components/ui/batch-bar";
import { Badge } from "@/components/ui/primitives";
import { formatDuration, formatRate } from "@/lib/jobs/pace";
import { JOB_KIND_LABELS, type JobStatus, type JobUnit, type JobView } from "@/lib/jobs/types";

import { type ControlJob, JobControls } from "./job-controls";

const TONES: Record<JobStatus, "indigo" | "amber" | "gray" | "green" | "red"> = {
  RUNNING: "indigo",
  PAUSED: "amber",
  CANCELLED: "gray",
  SUCCEEDED: "green",
  FAILED: "red",
};

/** An amount in a job's unit: bytes as MB, the rest as counts. */
function amount(value: number, unit: JobUnit): string {
  if (unit === "bytes") return `${(value / 1_000_000).toLocaleString("en-US", { maximumFractionDigits: 1 })} MB`;
  return value.toLocaleString("en-US");
}

function when(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** Every job of a page: kind and scope, a progress bar, rate and ETA, who started it, its result, its page and its actions. */
export function JobsTable({ jobs, controlJob }: { jobs: JobView[]; controlJob: ControlJob }) {
  return (
    <table className="w-full text-sm" aria-label="Jobs">
      <thead className="text-left text-xs uppercase text-slate-500">
        <tr>
          <th scope="col" className="py-1 pr-3">
            Job
          </th>
          <th scope="col" className="w-64 py-1 pr-3">
            Progress
          </th>
          <th scope="col" className="py-1 pr-3">
            Started
          </th>
          <th scope="col" className="py-1 pr-3">
            Result
          </th>
          <th scope="col" className="py-1 pr-3">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {jobs.map((job) => {
          const unit = job.unit === "bytes" ? "MB" : job.unit;
          const perMinute =
            job.perMinute === null ? null : job.unit === "bytes" ? job.perMinute / 1_000_000 : job.perMinute;
          return (
            <tr key={`${job.kind}:${job.id}`} data-testid="job-row" data-kind={job.kind} data-id={job.id}>
              <th scope="row" className="py-2 pr-3 text-left align-top font-normal">
                <Link href={job.href} className="font-medium text-indigo-700 hover:underline">
                  {JOB_KIND_LABELS[job.kind]}
                  {job.dataset ? ` · ${job.dataset}` : ""}
                </Link>
                <div className="text-xs text-slate-500">{job.scope}</div>
              </th>
              <td className="py-2 pr-3 align-top">
                <div className="mb-1 flex items-center gap-2">
                  <Badge tone={TONES[job.status]}>
                    <span data-testid="job-status">{job.status.toLowerCase()}</span>
                  </Badge>
                  <span className="text-xs text-slate-700" data-testid="job-counts">
                    {amount(job.done, job.unit)} of {amount(job.total, job.unit)} {job.unit === "bytes" ? "" : job.unit}
                  </span>
                </div>
                <BatchBar label={`${JOB_KIND_LABELS[job.kind]} progress`} done={job.done} total={job.total} />
                <div className="mt-1 text-xs text-slate-500">
                  {perMinute === null ? "rate: not yet known" : formatRate(perMinute, unit)}
                  {job.etaSeconds === null ? "" : ` · about ${formatDuration(job.etaSeconds)} left`}
                </div>
              </td>
              <td className="py-2 pr-3 align-top text-xs text-slate-600">
                <div>{job.startedBy ? (job.startedBy.name ?? job.startedBy.email) : "Verity (CLI or start-up)"}</div>
                <div>{when(job.startedAt)}</div>
                {job.finishedAt ? <div>ended {when(job.finishedAt)}</div> : null}
              </td>
              <td className="py-2 pr-3 align-top text-xs text-slate-700">
                <div>{job.result}</div>
                {job.stopReason ? <div className="text-red-700">{job.stopReason}</div> : null}
              </td>
              <td className="py-2 pr-3 align-top">
                <JobControls kind={job.kind} id={job.id} actions={job.actions} controlJob={controlJob} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
