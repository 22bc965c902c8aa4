"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";

import type { RunRecordAction } from "@/components/records/run-result";
import { RunResult, type RunView } from "@/components/records/run-result";
import { Button, ErrorNote } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { REVISABLE_FIELDS, type RevisableContent, type RevisableField } from "@/lib/revisions/fields";
import { revisionProposalSchema } from "@/lib/validation/revisions";
import { runRecordSchema } from "@/lib/validation/runs";

import { FieldDiffEditor } from "./diff-editor";

export type ProposeRevisionAction = Action<
  Partial<RevisableContent> & { recordId: number; reason: string; categories: string[]; baseRevision?: number },
  { number: number; evidence: { demoOutcome: string; fullOutcome: string } }
>;

const LABELS: Record<RevisableField, string> = {
  question: "Statement",
  canonical_solution: "Solution",
  demo_test_func: "Demo test",
  full_test_func: "Full test",
};

/**
 * Proposes a repair of a record: each field edited in Monaco's diff view against the current
 * version, run as a scratch run (the edited solution against the edited demo and full tests), then
 * submitted with a reason and the categories it fixes. A second person checks it blind.
 */
export function RevisionEditor({
  recordId,
  revision,
  waiting = null,
  isExecutionHidden = false,
  language,
  current,
  categories,
  onPropose,
  onRun,
}: {
  recordId: number;
  revision: number;
  /** A repair of the record waiting for its check: one waits at a time, so none can be proposed now. */
  waiting?: number | null;
  /** The campaign hides execution before the first label: the stored outcomes are not repeated here. */
  isExecutionHidden?: boolean;
  language: string;
  current: RevisableContent;
  categories: { key: string; label: string }[];
  onPropose: ProposeRevisionAction;
  onRun: RunRecordAction;
}) {
  const router = useRouter();
  const [isOpen, setOpen] = useState(false);
  const [field, setField] = useState<RevisableField>("full_test_func");
  // The editor owns the text being typed: a run or the proposal reads the draft from this ref when it
  // starts. The render's copy (`edited`) only marks the tabs and seeds an editor when its tab opens.
  const draft = useRef<RevisableContent>(current);
  const [edited, setEdited] = useState<RevisableContent>(current);
  const changed = REVISABLE_FIELDS.filter((name) => edited[name] !== current[name]);
  const [reason, setReason] = useState("");
  const [picked, setPicked] = useState<string[]>([]);
  const [runs, setRuns] = useState<RunView[]>([]);
  const [notice, setNotice] = useState<string>();
  const runner = useAction();
  const proposal = useAction();
  const onEdit = (value: string) => {
    draft.current = { ...draft.current, [field]: value };
    setEdited(draft.current);
  };

  // Once proposed, the page reloads with the repair waiting: the notice stays, with its outcomes.
  if (waiting !== null)
    return (
      <p className="text-sm text-slate-600" role="status" data-testid="revision-waiting">
        {notice ?? `Revision ${waiting} of this record waits in the repairs queue for a second person's blind check.`}{" "}
        Another revision can be proposed once it is accepted or rejected.
      </p>
    );
  if (!isOpen)
    return (
      <div className="space-y-2">
        {notice ? (
          <p role="status" className="text-sm">
            {notice}
          </p>
        ) : null}
        <Button type="button" variant="secondary" onClick={() => setOpen(true)}>
          Propose a revision
        </Button>
      </div>
    );

  async function runDraft() {
    const results: RunView[] = [];
    const { canonical_solution: solution, demo_test_func: demo, full_test_func: full } = draft.current;
    for (const test of [demo, full]) {
      const outcome = await runner.submit(runRecordSchema, { recordId, kind: "scratch", solution, test }, onRun);
      if (!outcome.ok) return;
      results.push(...outcome.data.runs);
    }
    setRuns(results);
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const typed = draft.current;
    const input = {
      ...Object.fromEntries(
        REVISABLE_FIELDS.filter((name) => typed[name] !== current[name]).map((name) => [name, typed[name]]),
      ),
      reason,
      categories: picked,
      baseRevision: revision,
    };
    const result = await proposal.submit(revisionProposalSchema, input, (body) => onPropose({ ...body, recordId }));
    if (!result.ok) return;
    const outcomes = isExecutionHidden
      ? ""
      : ` (demo ${result.data.evidence.demoOutcome}, full ${result.data.evidence.fullOutcome})`;
    setNotice(
      `Revision ${result.data.number} proposed${outcomes}. It waits in the repairs queue for a second person's blind check.`,
    );
    setOpen(false);
    router.refresh();
  }

  const error = Object.values(proposal.fieldErrors)[0]?.[0] ?? proposal.message;
  return (
    <form onSubmit={submit} className="space-y-3 text-sm" aria-label="Propose a revision">
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <div role="tablist" aria-label="Field to edit" className="flex flex-wrap gap-1">
        {REVISABLE_FIELDS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={field === name}
            onClick={() => setField(name)}
            className={`rounded px-2 py-1 text-xs ring-1 ring-slate-300 ${field === name ? "bg-indigo-600 text-white" : "bg-white"}`}
          >
            {LABELS[name]}
            {edited[name] !== current[name] ? " •" : ""}
          </button>
        ))}
      </div>
      <FieldDiffEditor
        key={field}
        label={`Revise ${LABELS[field]}`}
        language={field === "question" ? "markdown" : language}
        original={current[field]}
        initialModified={edited[field]}
        onChange={onEdit}
      />
      <div className="flex items-center gap-2">
        <Button type="button" variant="secondary" onClick={runDraft} disabled={runner.isPending}>
          {runner.isPending ? "Running…" : "Run revised tests"}
        </Button>
        {runner.message ? <span className="text-red-700">{runner.message}</span> : null}
      </div>
      {runs.map((run, index) => (
        <RunResult key={run.id} result={run} title={index === 0 ? "Revised demo test" : "Revised full test"} />
      ))}
      <label className="block">
        <span className="font-medium text-slate-700">Reason</span>
        <textarea
          name="reason"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          rows={2}
          className="mt-1 w-full rounded-md p-2 ring-1 ring-slate-300"
          placeholder="What was wrong, and why the revision is right"
        />
      </label>
      <fieldset>
        <legend className="mb-1 font-medium text-slate-700">Error categories it fixes</legend>
        <div className="grid grid-cols-2 gap-1">
          {categories.map((category) => (
            <label key={category.key} className="flex items-center gap-1.5 text-xs">
              <input
                type="checkbox"
                checked={picked.includes(category.key)}
                onChange={(event) =>
                  setPicked((keys) =>
                    event.target.checked ? [...keys, category.key] : keys.filter((key) => key !== category.key),
                  )
                }
              />
              {category.label}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex gap-2">
        <Button type="submit" disabled={proposal.isPending || changed.length === 0}>
          {proposal.isPending ? "Submitting…" : "Submit revision"}
        </Button>
        <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
