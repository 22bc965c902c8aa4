"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

import { Button, ErrorNote } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { ActionResult } from "@/lib/actions/result";

type Props = {
  dataset: string;
  onImport: (input: { dataset: string; text: string }) => Promise<ActionResult<{ imported: number }>>;
};

/** Imports a file of gold answers (JSONL or CSV) into a dataset; a bad line refuses the whole file. */
export function GoldImport({ dataset, onImport }: Props) {
  const router = useRouter();
  const [notice, setNotice] = useState<string>();
  const { run, isPending, message, fieldErrors, say } = useAction();
  const errors = fieldErrors.file ?? [];

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNotice(undefined);
    const file = new FormData(event.currentTarget).get("file");
    if (!(file instanceof File) || file.size === 0) return say("Choose a file.");
    const result = await run(async () => onImport({ dataset, text: await file.text() }));
    if (!result.ok) return;
    setNotice(`Imported ${result.data.imported} gold answers.`);
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
      {message ? (
        <ErrorNote>
          {message}
          {/* The summary lists no line itself: each bad line appears here, once. */}
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
          accept=".jsonl,.ndjson,.csv,.json,text/csv,application/x-ndjson"
          aria-label="Gold file"
          className="max-w-full min-w-0 text-sm"
        />
        <Button type="submit" variant="secondary" disabled={isPending}>
          Import gold
        </Button>
      </div>
    </form>
  );
}
