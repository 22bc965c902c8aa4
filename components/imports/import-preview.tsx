"use client";

import { useState } from "react";

import { Button, ErrorNote } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { importPreviewInputSchema } from "@/lib/validation/records";

type Preview = {
  records: { line: number; language: string; question: string; canonicalSolution: string; fullTestFunc: string }[];
  errors: { line: number; message: string }[];
  hasMore: boolean;
};

/** Text enough for the first records; the action takes at most 512 KB. */
const PREVIEW_BYTES = 512 * 1024;

/** The opening of a plain file, cut after its last whole line so no record is cut in half. */
async function openingLines(file: File): Promise<string> {
  const text = await file.slice(0, PREVIEW_BYTES).text();
  if (file.size <= PREVIEW_BYTES) return text;
  const lastNewline = text.lastIndexOf("\n");
  return lastNewline > 0 ? text.slice(0, lastNewline) : text;
}

/** The Preview button: reads the first records of the chosen file through the chosen format; writes nothing. */
export function ImportPreview({
  getFile,
  mapping,
  preview: previewAction,
}: {
  getFile: () => File | undefined;
  mapping: string;
  preview: Action<{ text: string; mapping?: string }, Preview>;
}) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [note, setNote] = useState<string>();
  const { submit, isPending, message, fieldErrors } = useAction();

  async function onPreview() {
    const file = getFile();
    setPreview(null);
    setNote(undefined);
    if (!file) return setNote("Choose a file to preview.");
    // A cut gzip stream cannot be read, and the whole file may be far larger than a preview needs.
    if (file.name.endsWith(".gz"))
      return setNote("The preview reads plain JSONL or JSON; the import itself takes .gz.");
    const text = await openingLines(file);
    const result = await submit(importPreviewInputSchema, { text, ...(mapping ? { mapping } : {}) }, previewAction);
    if (result.ok) setPreview(result.data);
  }

  const error = note ?? (message ? [message, ...Object.values(fieldErrors).flat()].join(" ") : undefined);
  return (
    <div className="space-y-3">
      <Button type="button" variant="secondary" onClick={onPreview} disabled={isPending}>
        {isPending ? "Reading…" : "Preview the first records"}
      </Button>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      {preview ? (
        <table className="w-full text-sm" aria-label="Preview">
          <thead>
            <tr className="text-left text-xs uppercase text-slate-500">
              <th className="pr-4">Line</th>
              <th className="pr-4">Language</th>
              <th>Statement, solution and full test as they would be stored</th>
            </tr>
          </thead>
          <tbody>
            {preview.records.map((record) => (
              <tr key={`r${record.line}`} className="border-t border-slate-100 align-top">
                <td className="pr-4 tabular-nums">line {record.line}</td>
                <td className="pr-4">{record.language}</td>
                <td className="space-y-1 py-1">
                  <p className="line-clamp-2">{record.question}</p>
                  <pre className="max-h-32 overflow-auto rounded bg-slate-50 p-1 text-xs">
                    {record.canonicalSolution}
                  </pre>
                  <pre className="max-h-32 overflow-auto rounded bg-slate-50 p-1 text-xs">{record.fullTestFunc}</pre>
                </td>
              </tr>
            ))}
            {preview.errors.map((entry) => (
              <tr key={`e${entry.line}`} className="border-t border-slate-100 align-top">
                <td className="pr-4 tabular-nums">line {entry.line}</td>
                <td className="pr-4">—</td>
                <td className="text-red-800">{entry.message}</td>
              </tr>
            ))}
          </tbody>
          {preview.hasMore ? (
            <tfoot>
              <tr>
                <td colSpan={3} className="pt-1 text-xs text-slate-500">
                  The file holds more; only the first records are shown. Nothing has been imported.
                </td>
              </tr>
            </tfoot>
          ) : null}
        </table>
      ) : null}
    </div>
  );
}
