"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type ComponentProps, useRef, useState } from "react";
import { z } from "zod";

import { ImportPreview } from "@/components/imports/import-preview";
import { Button, ErrorNote, Field, Input, Select } from "@/components/ui/primitives";
import { countOf } from "@/lib/format/count";
import { BUILTIN_MAPPINGS } from "@/lib/records/mapping";
import { apiErrorResponseSchema } from "@/lib/validation/api-error";
import { importSummaryResponseSchema } from "@/lib/validation/records";

type Summary = z.infer<typeof importSummaryResponseSchema>;

/** The import route's answer: its summary (201, or 422 with ok false), or the API's error. */
const answerSchema = z.union([importSummaryResponseSchema, apiErrorResponseSchema]);

/** The answer's body parsed with the route's schemas; null when it is not JSON or not what they say. */
function readAnswer(text: string): z.infer<typeof answerSchema> | null {
  try {
    const parsed = answerSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Streams the chosen file to the import API and shows upload progress, then the summary. */
export function UploadForm({ preview }: { preview: ComponentProps<typeof ImportPreview>["preview"] }) {
  const [progress, setProgress] = useState<number | null>(null);
  const [summary, setSummary] = useState<Summary | null>(null);
  const [error, setError] = useState<string>();
  const [mapping, setMapping] = useState("");
  const fileInput = useRef<HTMLInputElement>(null);
  const router = useRouter();

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = fileInput.current?.files?.[0];
    const dataset = String(form.get("dataset") ?? "").trim();
    if (!file) return setError("Choose a file to import.");
    if (!dataset) return setError("Name the dataset.");
    setError(undefined);
    setSummary(null);
    setProgress(0);
    const query = new URLSearchParams({
      fileName: file.name,
      skipInvalid: form.get("skipInvalid") ? "1" : "0",
      ...(mapping ? { mapping } : {}),
    });
    // XMLHttpRequest, not fetch: only it reports upload progress. The server imports as bytes arrive.
    const request = new XMLHttpRequest();
    request.open("POST", `/api/v1/datasets/${encodeURIComponent(dataset)}/records?${query}`);
    request.setRequestHeader("x-verity-client", "web");
    request.upload.onprogress = (progressEvent) => {
      if (progressEvent.lengthComputable) setProgress(progressEvent.loaded / progressEvent.total);
    };
    request.onload = () => {
      setProgress(null);
      // The recent imports list below now holds this one.
      router.refresh();
      const body = readAnswer(request.responseText);
      if (!body) return setError(`The server answered ${request.status} without a readable body.`);
      if ("error" in body)
        setError(
          body.error.message +
            (body.error.fieldErrors ? ` ${Object.values(body.error.fieldErrors).flat().join(" ")}` : ""),
        );
      else setSummary(body);
    };
    request.onerror = () => {
      setProgress(null);
      router.refresh();
      setError("The upload failed: the server could not be reached. Nothing was imported; try again.");
    };
    request.send(file);
  }

  return (
    <div className="space-y-5">
      <form onSubmit={onSubmit} className="grid max-w-xl gap-4">
        <Field label="File" htmlFor="file" hint=".jsonl, .json, or either gzipped (.gz)">
          <Input
            id="file"
            name="file"
            type="file"
            ref={fileInput}
            accept=".jsonl,.json,.gz,.ndjson,application/json,application/gzip"
            required
          />
        </Field>
        <Field label="Dataset" htmlFor="dataset" hint="A new name creates the dataset; an existing one adds to it.">
          <Input
            id="dataset"
            name="dataset"
            required
            pattern="[A-Za-z0-9][A-Za-z0-9._\-]{0,99}"
            placeholder="acb-2026-11"
          />
        </Field>
        <Field
          label="Format"
          htmlFor="mapping"
          hint={mapping ? BUILTIN_MAPPINGS[mapping].description : "Records with AutoCodeBench's fields."}
        >
          <Select id="mapping" name="mapping" value={mapping} onChange={(event) => setMapping(event.target.value)}>
            <option value="">AutoCodeBench</option>
            {Object.keys(BUILTIN_MAPPINGS).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </Select>
        </Field>
        <ImportPreview getFile={() => fileInput.current?.files?.[0]} mapping={mapping} preview={preview} />
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="skipInvalid" className="size-4 rounded border-slate-300" /> Skip bad lines and
          import the valid records
        </label>
        <div>
          <Button type="submit" disabled={progress !== null}>
            {progress !== null ? "Importing…" : "Import"}
          </Button>
        </div>
      </form>
      {progress !== null ? (
        <div aria-live="polite">
          <div
            className="h-2 w-full max-w-xl overflow-hidden rounded bg-slate-200"
            role="progressbar"
            aria-valuenow={Math.round(progress * 100)}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-label="Import progress"
          >
            <div className="h-full bg-indigo-600 transition-all" style={{ width: `${Math.round(progress * 100)}%` }} />
          </div>
          <p className="mt-1 text-xs text-slate-600">
            {progress < 1 ? `Uploading and importing… ${Math.round(progress * 100)}%` : "Finishing the import…"}
          </p>
        </div>
      ) : null}
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      {summary ? <ImportSummaryView summary={summary} /> : null}
    </div>
  );
}

function ImportSummaryView({ summary }: { summary: Summary }) {
  return (
    <div className="space-y-3" aria-live="polite">
      {summary.ok ? (
        <p
          className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900 ring-1 ring-emerald-200"
          role="status"
        >
          Imported {countOf(summary.imported, "record")} into{" "}
          <Link className="font-medium underline" href={`/datasets/${encodeURIComponent(summary.dataset)}`}>
            {summary.dataset}
          </Link>
          {summary.duplicates ? `; ${summary.duplicates} were already there` : ""}
          {summary.skipped ? `; ${countOf(summary.skipped, "bad line")} skipped` : ""}.
        </p>
      ) : (
        <ErrorNote>
          {summary.errorCount
            ? `${summary.errorCount} bad line${summary.errorCount === 1 ? "" : "s"}: nothing was imported. Fix them, or tick “Skip bad lines”.`
            : "The file holds no records; nothing was imported."}
        </ErrorNote>
      )}
      {summary.errors.length > 0 ? (
        <table className="text-sm">
          <thead>
            <tr className="text-left text-xs uppercase text-slate-500">
              <th className="pr-4">Line</th>
              <th>Problem</th>
            </tr>
          </thead>
          <tbody>
            {summary.errors.map((entry, index) => (
              <tr key={index}>
                <td className="pr-4 align-top tabular-nums">line {entry.line}</td>
                <td className="text-red-800">{entry.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
