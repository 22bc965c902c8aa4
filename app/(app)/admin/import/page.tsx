import { UploadForm } from "@/components/imports/upload-form";
import { Card, PageHeader } from "@/components/ui/primitives";
import { requirePageActor } from "@/lib/server/auth/require-actor";

export const metadata = { title: "Import" };

export default async function ImportPage() {
  await requirePageActor("imports:write", "/admin/import");
  return (
    <>
      <PageHeader
        title="Import records"
        description="JSONL (one record a line) or a JSON array, optionally gzipped, in the AutoCodeBench format. A file with a bad line imports nothing unless you choose to skip bad lines; records already in the dataset are not added twice."
      />
      <Card>
        <UploadForm />
      </Card>
    </>
  );
}
