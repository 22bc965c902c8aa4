"use client";

import { useState } from "react";

import { Button, Checkbox, ErrorNote } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { campaignGuidelinesSchema } from "@/lib/validation/campaigns";

/** The admin's settings that may change during a campaign: the annotators' guidelines and the note rule. */
export function CampaignSettings({
  campaignId,
  guidelines,
  requireInvalidNote,
  saveGuidelines,
}: {
  campaignId: string;
  guidelines: string;
  requireInvalidNote: boolean;
  saveGuidelines: Action<{ campaignId: string; guidelines: string; requireInvalidNote: boolean }, unknown>;
}) {
  const [text, setText] = useState(guidelines);
  const [isNoteRequired, setNoteRequired] = useState(requireInvalidNote);
  const [saved, setSaved] = useState(false);
  const { submit, isPending, message, fieldErrors } = useAction();
  const error = fieldErrors.guidelines?.[0] ?? message;

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const input = { campaignId, guidelines: text, requireInvalidNote: isNoteRequired };
    const result = await submit(campaignGuidelinesSchema, input, saveGuidelines);
    setSaved(result.ok);
  }

  return (
    <form onSubmit={onSubmit} className="space-y-3 text-sm" aria-label="Guidelines and note rule">
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <div className="space-y-1">
        <label htmlFor="campaign-guidelines" className="block font-medium text-slate-700">
          Guidelines (Markdown)
        </label>
        <textarea
          id="campaign-guidelines"
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={6}
          maxLength={20_000}
          className="block w-full rounded-md border-0 px-2.5 py-1.5 font-mono text-xs ring-1 ring-slate-300 focus:ring-2 focus:ring-indigo-500"
          placeholder="How this campaign judges records: what counts as invalid, which category to pick when in doubt…"
        />
        <p className="text-xs text-slate-500">Annotators open them in the workspace with G.</p>
      </div>
      <Checkbox
        label="Require a note on invalid labels"
        checked={isNoteRequired}
        onChange={(event) => setNoteRequired(event.target.checked)}
      />
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={isPending}>
          {isPending ? "Saving…" : "Save guidelines"}
        </Button>
        {saved ? (
          <span role="status" className="text-emerald-800">
            Settings saved.
          </span>
        ) : null}
      </div>
    </form>
  );
}
