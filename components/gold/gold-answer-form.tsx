"use client";

import { useRouter } from "next/navigation";
import type { z } from "zod";

import { Button, ErrorNote } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action, ActionResult } from "@/lib/actions/result";
import { DEFAULT_CATEGORIES } from "@/lib/annotation/categories";
import { clearGoldSchema, setGoldSchema } from "@/lib/validation/gold";

type Answer = { valid: boolean; categories: string[]; note: string | null };
type Props = {
  recordId: number;
  answer: Answer | null;
  onSave: Action<z.input<typeof setGoldSchema>, unknown>;
  onClear: Action<z.input<typeof clearGoldSchema>, unknown>;
};

/** The admin's gold answer for a record: the known verdict, its categories and a note. */
export function GoldAnswerForm({ recordId, answer, onSave, onClear }: Props) {
  const router = useRouter();
  const { submit, isPending, message, fieldErrors, notice, announce } = useAction();
  const error = Object.values(fieldErrors)[0]?.[0] ?? message;

  async function change(call: Promise<ActionResult<unknown>>, done: string) {
    if (!(await call).ok) return;
    announce(done);
    router.refresh();
  }

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const valid = form.get("verdict") === "valid";
    const input = {
      recordId,
      valid,
      categories: valid ? [] : form.getAll("categories").map(String),
      note: String(form.get("note") ?? "") || null,
    };
    return change(submit(setGoldSchema, input, onSave), "Gold answer saved.");
  }

  return (
    <form onSubmit={onSubmit} className="space-y-3 text-sm" aria-label="Gold answer">
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      {notice ? (
        <p role="status" className="text-emerald-800">
          {notice}
        </p>
      ) : null}
      <fieldset className="flex gap-4">
        <legend className="mb-1 font-medium text-slate-700">Known verdict</legend>
        {(["valid", "invalid"] as const).map((verdict) => (
          <label key={verdict} className="flex items-center gap-1.5">
            <input
              type="radio"
              name="verdict"
              value={verdict}
              defaultChecked={answer ? answer.valid === (verdict === "valid") : false}
              required
              className="size-4"
            />
            {verdict === "valid" ? "Valid" : "Invalid"}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend className="mb-1 font-medium text-slate-700">Categories (when invalid)</legend>
        <div className="grid grid-cols-2 gap-1">
          {DEFAULT_CATEGORIES.map((category) => (
            <label key={category.key} className="flex items-center gap-1.5 text-xs" title={category.description}>
              <input
                type="checkbox"
                name="categories"
                value={category.key}
                defaultChecked={answer?.categories.includes(category.key)}
                className="size-3.5"
              />
              {category.label}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="block">
        <span className="mb-1 block font-medium text-slate-700">Note</span>
        <textarea
          name="note"
          defaultValue={answer?.note ?? ""}
          rows={2}
          maxLength={2000}
          className="block w-full rounded-md border-0 px-2.5 py-1.5 text-sm ring-1 ring-slate-300 focus:ring-2 focus:ring-indigo-500"
        />
      </label>
      <div className="flex gap-2">
        <Button type="submit" disabled={isPending}>
          {answer ? "Save gold answer" : "Mark as gold"}
        </Button>
        {answer ? (
          <Button
            type="button"
            variant="secondary"
            disabled={isPending}
            onClick={() => change(submit(clearGoldSchema, { recordId }, onClear), "Gold answer removed.")}
          >
            Remove gold answer
          </Button>
        ) : null}
      </div>
    </form>
  );
}
