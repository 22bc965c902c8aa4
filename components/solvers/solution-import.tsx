"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

import { Button, ErrorNote, Input } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { ActionResult } from "@/lib/actions/result";
import { countOf } from "@/lib/format/count";

type Props = {
  dataset: string;
  onImport: (input: {
    dataset: string;
    text: string;
    model?: string;
  }) => Promise<ActionResult<{ imported: number; toRun: number; withoutCode: number; models: string[] }>>;
};

/** Imports a file of model outputs into a dataset and queues their runs; a bad line refuses the whole file. */
export function SolutionImport({ dataset, onImport }: Props) {
  const router = useRouter();
  const [notice, setNotice] = useState<string>();
  const { run, isPending, message, fieldErrors, say } = useAction();
  const errors = fieldErrors.file ?? [];

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNotice(undefined);
    const form = new FormData(event.currentTarget);
    const file = form.get("file");
    const model = String(form.get("model") ?? "").trim();
    if (!(file instanceof File) || file.size === 0) return say("Choose a file.");
    const result = await run(async () => onImport({ dataset, text: await file.text(), model: model || undefined }));
    if (!result.ok) return;
    const { imported, toRun, withoutCode, models } = result.data;
    setNotice(
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
      {message ? (
        <ErrorNote>
          {message}
          {errors.length > 0 ? (
            <ul className="mt-1 list-disc pl-5">
              {errors.map((error) => (
                <li key={error}>{error}</li>
              ))}
            </ul>
          ) : null}
        </ErrorNote>
      ) : null}
      {notice ? (
        <p role="status" className="text-emerald-800">
          {notice}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <input
          type="file"
          name="file"
          accept=".jsonl,.ndjson,.json,.gz,application/x-ndjson"
          aria-label="Model outputs file"
          className="text-sm"
        />
        <Input name="model" placeholder="model (for lines naming none)" aria-label="Model" className="w-64" />
        <Button type="submit" variant="secondary" disabled={isPending}>
          {isPending ? "Importing…" : "Import and run"}
        </Button>
      </div>
    </form>
  );
}
