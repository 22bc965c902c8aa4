// The HTTP answer for a validity report in any of its formats, shared by the campaign and dataset routes.
import { downloadFileName, type FormattableReport, reportToCsv, reportToMarkdown } from "./format";

export type ReportFormat = "json" | "csv" | "md";

const CONTENT_TYPES: Record<ReportFormat, string> = {
  json: "application/json; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  md: "text/markdown; charset=utf-8",
};

/** The report as a download named after its campaign or dataset and today's date; `note` goes under the Markdown table. */
export function reportResponse({
  report,
  format,
  name,
  note,
}: {
  report: FormattableReport;
  format: ReportFormat;
  name: string;
  note?: string;
}): Response {
  const body =
    format === "json"
      ? JSON.stringify(report)
      : format === "csv"
        ? reportToCsv(report)
        : reportToMarkdown(report, { note });
  const fileName = downloadFileName({ name, what: "report", extension: format });
  return new Response(body, {
    headers: { "content-type": CONTENT_TYPES[format], "content-disposition": `attachment; filename="${fileName}"` },
  });
}
