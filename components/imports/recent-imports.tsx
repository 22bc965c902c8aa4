import { type Column, DataTable } from "@/components/ui/data-table";
import { Badge } from "@/components/ui/primitives";
import { countOf } from "@/lib/format/count";

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

const STATUS = {
  RUNNING: { tone: "indigo", label: "Running" },
  SUCCEEDED: { tone: "green", label: "Done" },
  FAILED: { tone: "red", label: "Failed" },
} as const;

const COLUMNS: Column[] = [
  { label: "Started" },
  { label: "Dataset" },
  { label: "File" },
  { label: "Status" },
  { label: "Lines", numeric: true },
  { label: "New records", numeric: true },
  { label: "Outcome" },
];

/** The latest imports from every source (upload, API, CLI), with each one's outcome and why it failed. */
export function RecentImports({ jobs }: { jobs: ImportRow[] }) {
  if (jobs.length === 0) return <p className="text-sm text-slate-600">No imports yet.</p>;
  return (
    <DataTable label="Recent imports" columns={COLUMNS}>
      {jobs.map((job) => (
        <tr key={job.id}>
          <td className="py-2 pr-3 whitespace-nowrap text-slate-600">
            {job.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC
          </td>
          <td className="py-2 pr-3 font-medium text-slate-800">{job.datasetName}</td>
          <td className="max-w-48 truncate py-2 pr-3 text-slate-600" title={job.fileName ?? undefined}>
            {job.fileName ?? "—"}
          </td>
          <td className="py-2 pr-3">
            <Badge tone={STATUS[job.status].tone}>{STATUS[job.status].label}</Badge>
          </td>
          <td className="py-2 pr-3 text-right tabular-nums">{job.linesRead}</td>
          <td className="py-2 pr-3 text-right tabular-nums">{job.imported}</td>
          <td className="py-2 text-slate-700">
            {job.message ??
              (job.skipped
                ? `${countOf(job.skipped, "bad line")} skipped`
                : job.status === "SUCCEEDED"
                  ? "Imported"
                  : "")}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
