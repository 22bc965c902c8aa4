import { RecentImports } from "@/components/imports/recent-imports";
import { UploadForm } from "@/components/imports/upload-form";
import { Card, PageHeader } from "@/components/ui/primitives";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { listImportJobs } from "@/lib/server/imports/imports";

import { previewImportAction } from "./actions";

export const metadata = { title: "Import" };

export default async function ImportPage() {
  const actor = await requirePageActor("imports:write", "/admin/import");
  const jobs = await listImportJobs({ actor });
  return (
    <>
      <PageHeader
        title="Import records"
        description="JSONL (one record a line) or a JSON array, optionally gzipped, in the AutoCodeBench format, or in HumanEval's, MBPP's or HumanEval-X's through a field mapping (choose the format; preview the first records before importing). A file with a bad line imports nothing unless you choose to skip bad lines; records already in the dataset are not added twice."
      />
      <Card>
        <UploadForm preview={previewImportAction} />
      </Card>
      <Card title="Recent imports" className="mt-6">
        <RecentImports jobs={jobs} />
      </Card>
    </>
  );
}
