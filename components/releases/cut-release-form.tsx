"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

import { FormOutcome } from "@/components/ui/form-outcome";
import { Button, Checkbox, Input } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { releaseCreateSchema } from "@/lib/validation/releases";
import { countOf } from "@/lib/format/count";

export type CutReleaseAction = Action<
  { dataset: string; name: string; requireExecutable?: boolean },
  | { name: string; status: "READY"; records: number; excluded: number; revised: number }
  | { name: string; status: "BUILDING" }
>;

/**
 * Cuts a named, immutable release of a dataset: its records at their accepted revisions, the
 * validity table and the method disclosure as they are now (a large dataset's by a job: the release
 * list follows it). A name the dataset has is refused.
 */
export function CutReleaseForm({ dataset, onCut }: { dataset: string; onCut: CutReleaseAction }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [requireExecutable, setRequireExecutable] = useState(false);
  const { submit, isPending, message, fieldErrors, notice, announce } = useAction();

  async function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    const result = await submit(releaseCreateSchema, { name, requireExecutable }, (input) =>
      onCut({ ...input, dataset }),
    );
    if (!result.ok) return;
    const cut = result.data;
    announce(
      cut.status === "READY"
        ? `Release ${cut.name} cut: ${countOf(cut.records, "record")} in (${cut.revised} at a repaired revision), ${cut.excluded} out.`
        : `Release ${cut.name} is being cut in the background: the list below shows it when it is ready.`,
    );
    setName("");
    router.refresh();
  }

  const error = fieldErrors.name?.[0];
  return (
    <form onSubmit={onSubmit} className="space-y-2 text-sm" aria-label="Cut a release">
      <FormOutcome message={message} details={error && error !== message ? [error] : []} notice={notice} />
      <div className="flex flex-wrap items-end gap-3">
        <label>
          <span className="mb-1 block text-slate-600">Release name</span>
          <Input
            name="name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="v1"
            aria-invalid={error ? true : undefined}
          />
        </label>
        <Checkbox
          label="Leave out records whose solution fails its tests"
          checked={requireExecutable}
          onChange={(event) => setRequireExecutable(event.target.checked)}
          className="pb-1.5"
        />
        <Button type="submit" disabled={isPending}>
          {isPending ? "Cutting…" : "Cut a release"}
        </Button>
      </div>
    </form>
  );
}
