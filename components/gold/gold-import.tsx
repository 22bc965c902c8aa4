"use client";

import { useRouter } from "next/navigation";
import type { z } from "zod";

import { FileInput, fileText } from "@/components/ui/file-field";
import { FormOutcome } from "@/components/ui/form-outcome";
import { Button } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { importGoldSchema } from "@/lib/validation/gold";

type Props = {
  dataset: string;
  onImport: Action<z.input<typeof importGoldSchema>, { imported: number }>;
};

/** Imports a file of gold answers (JSONL or CSV) into a dataset; a bad line refuses the whole file. */
export function GoldImport({ dataset, onImport }: Props) {
  const router = useRouter();
  const { submit, isPending, message, fieldErrors, notice, announce } = useAction();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = await fileText(new FormData(event.currentTarget).get("file"));
    const result = await submit(importGoldSchema, { dataset, text }, onImport);
    if (!result.ok) return;
    announce(`Imported ${result.data.imported} gold answers.`);
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-2 text-sm" aria-label="Import gold answers">
      <p className="text-slate-600">
        JSONL (<code>{'{"key": "…", "verdict": "invalid", "categories": ["name-mismatch"], "note": "…"}'}</code>) or CSV
        with a header (<code>key</code> or <code>id</code>, <code>verdict</code>, <code>categories</code> separated by
        “;”, <code>note</code>). Any bad line refuses the whole file. Up to 1 MB here; larger files through the API or{" "}
        <code>verity gold import</code>.
      </p>
      {/* The summary lists no line itself: each bad line appears here, once. */}
      <FormOutcome message={message} details={fieldErrors.file ?? fieldErrors.text} notice={notice} />
      <div className="flex flex-wrap items-center gap-2">
        <FileInput
          label="Gold file"
          accept=".jsonl,.ndjson,.csv,.json,text/csv,application/x-ndjson"
          className="max-w-full min-w-0"
        />
        <Button type="submit" variant="secondary" disabled={isPending}>
          Import gold
        </Button>
      </div>
    </form>
  );
}
