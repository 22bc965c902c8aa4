import { Badge } from "@/components/ui/primitives";

export type ImportRow = {
  id: string;
  datasetName: string;
  fileName: string | null;
  status: "RUNNING" | "SUCCEEDED" | "FAILED";
  linesRead: number;
  imported: number;
  skipped: number;
  message: string | null;
  createdAt: Date;
};

const STATUS = { RUNNING: { tone: "indigo", label: "Running" }, SUCCEEDED: { tone: "green", label: "Done" }, FAILED: { tone: "red", label: "Failed" } } as const;

/** The latest imports from every source (upload, API, CLI), with each one's outcome and why it failed. */
export function RecentImports({ jobs }: { jobs: ImportRow[] }) {
  if (jobs.length === 0) return <p className="text-sm text-slate-600">No imports yet.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label="Recent imports">
        <thead className="text-left text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="py-2 pr-3">Started</th>
            <th scope="col" className="py-2 pr-3">Dataset</th>
            <th scope="col" className="py-2 pr-3">File</th>
            <th scope="col" className="py-2 pr-3">Status</th>
            <th scope="col" className="py-2 pr-3 text-right">Lines</th>
            <th scope="col" className="py-2 pr-3 text-right">New records</th>
            <th scope="col" className="py-2">Outcome</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {jobs.map((job) => (
            <tr key={job.id}>
              <td className="py-2 pr-3 whitespace-nowrap text-slate-600">{job.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC</td>
              <td className="py-2 pr-3 font-medium text-slate-800">{job.datasetName}</td>
              <td className="max-w-48 truncate py-2 pr-3 text-slate-600" title={job.fileName ?? undefined}>{job.fileName ?? "—"}</td>
              <td className="py-2 pr-3">
                <Badge tone={STATUS[job.status].tone}>{STATUS[job.status].label}</Badge>
              </td>
              <td className="py-2 pr-3 text-right tabular-nums">{job.linesRead}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{job.imported}</td>
              <td className="py-2 text-slate-700">{job.message ?? (job.skipped ? `${job.skipped} bad lines skipped` : job.status === "SUCCEEDED" ? "Imported" : "")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
