"use client";

import Link from "next/link";
import { useState } from "react";

import { Button, ErrorNote } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";

export type CheckRevisionAction = Action<
  { revisionId: string; valid: boolean; categories: string[]; note?: string },
  { status: "ACCEPTED" | "REJECTED"; number: number; recordId: number }
>;

/** The checker's label on a revised record: valid accepts the revision, invalid rejects it. */
export function CheckForm({
  revisionId,
  categories,
  onCheck,
}: {
  revisionId: string;
  categories: { key: string; label: string }[];
  onCheck: CheckRevisionAction;
}) {
  const { run, isPending, message } = useAction();
  const [done, setDone] = useState<{ status: string; recordId: number }>();

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const valid = form.get("verdict") === "valid";
    const result = await run(() =>
      onCheck({
        revisionId,
        valid,
        categories: valid ? [] : form.getAll("categories").map(String),
        note: String(form.get("note") ?? "") || undefined,
      }),
    );
    if (result.ok) setDone({ status: result.data.status, recordId: result.data.recordId });
  }

  if (done)
    return (
      <p role="status" className="text-sm">
        Revision{" "}
        {done.status === "ACCEPTED" ? "accepted: the record now holds it" : "rejected: it stays in the history"}.{" "}
        <Link href={`/records/${done.recordId}`} className="text-indigo-700 hover:underline">
          See the record and its revisions
        </Link>
      </p>
    );
  return (
    <form onSubmit={submit} className="space-y-3 text-sm" aria-label="Check the revision">
      {message ? <ErrorNote>{message}</ErrorNote> : null}
      <fieldset className="flex gap-4">
        <legend className="mb-1 font-medium text-slate-700">Verdict</legend>
        {(["valid", "invalid"] as const).map((verdict) => (
          <label key={verdict} className="flex items-center gap-1.5">
            <input type="radio" name="verdict" value={verdict} required className="size-4" />
            {verdict === "valid" ? "Valid" : "Invalid"}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend className="mb-1 font-medium text-slate-700">Categories (when invalid)</legend>
        <div className="grid grid-cols-2 gap-1">
          {categories.map((category) => (
            <label key={category.key} className="flex items-center gap-1.5 text-xs">
              <input type="checkbox" name="categories" value={category.key} />
              {category.label}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="block">
        <span className="font-medium text-slate-700">Note</span>
        <textarea name="note" rows={2} className="mt-1 w-full rounded-md p-2 ring-1 ring-slate-300" />
      </label>
      <Button type="submit" disabled={isPending}>
        {isPending ? "Saving…" : "Submit check"}
      </Button>
    </form>
  );
}
