"use client";

import { useRouter } from "next/navigation";
import type { z } from "zod";

import { FileInput, fileText } from "@/components/ui/file-field";
import { FormOutcome } from "@/components/ui/form-outcome";
import { Button, Input } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { importSolutionsSchema } from "@/lib/validation/solutions";
import { countOf } from "@/lib/format/count";

type Props = {
  dataset: string;
  onImport: Action<
    z.input<typeof importSolutionsSchema>,
    { imported: number; toRun: number; withoutCode: number; models: string[] }
  >;
};

/** Imports a file of model outputs into a dataset and queues their runs; a bad line refuses the whole file. */
export function SolutionImport({ dataset, onImport }: Props) {
  const router = useRouter();
  const { submit, isPending, message, fieldErrors, notice, announce } = useAction();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const model = String(form.get("model") ?? "").trim();
    const input = { dataset, text: await fileText(form.get("file")), model: model || undefined };
    const result = await submit(importSolutionsSchema, input, onImport);
    if (!result.ok) return;
    const { imported, toRun, withoutCode, models } = result.data;
    announce(
      `Imported ${countOf(imported, "solution")} from ${countOf(models.length, "model")}; ${toRun} queued to run${withoutCode ? `, ${withoutCode} with no code (not solved)` : ""}.`,
    );
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-2 text-sm" aria-label="Import model outputs">
      <p className="text-slate-600">
        JSONL, one solution a line: <code>{'{"key": "…", "model": "…", "code": "…"}'}</code>, or the model&apos;s raw
        reply in <code>output</code> (its first fenced code block is run, as AutoCodeBench&apos;s evaluation takes it).
        AutoCodeBench result lines (the record&apos;s own fields plus <code>output</code>) work too: name their model
        below. Any bad line refuses the whole file. Up to 1 MB here; larger files through the API or{" "}
        <code>verity solutions import</code>.
      </p>
      <FormOutcome message={message} details={fieldErrors.file ?? fieldErrors.text} notice={notice} />
      <div className="flex flex-wrap items-center gap-2">
        <FileInput label="Model outputs file" accept=".jsonl,.ndjson,.json,.gz,application/x-ndjson" />
        <Input name="model" placeholder="model (for lines naming none)" aria-label="Model" className="w-64" />
        <Button type="submit" variant="secondary" disabled={isPending}>
          {isPending ? "Importing…" : "Import and run"}
        </Button>
      </div>
    </form>
  );
}
