"use client";

import { useState } from "react";
import type { z } from "zod";

import { Button, ErrorNote, Select } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { type HarnessChoice, HARNESS_PROFILE_LANGUAGES, type HarnessProfile } from "@/lib/records/harness";
import { datasetHarnessSchema } from "@/lib/validation/records";

const PROFILES = Object.entries(HARNESS_PROFILE_LANGUAGES) as [HarnessProfile, string][];
const LANGUAGES_WITH_PROFILES = [...new Set(PROFILES.map(([, language]) => language))];

/** The harness each language's batch verification runs with: AutoCodeBench's rules or a profile. */
export function HarnessForm({
  dataset,
  harness,
  onSave,
}: {
  dataset: string;
  harness: HarnessChoice;
  onSave: Action<z.input<typeof datasetHarnessSchema>, unknown>;
}) {
  const [choice, setChoice] = useState<Record<string, string>>(harness as Record<string, string>);
  const [isSaved, setIsSaved] = useState(false);
  const { submit, isPending, message } = useAction();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setIsSaved(false);
    const chosen = Object.fromEntries(Object.entries(choice).filter(([, profile]) => profile !== "")) as HarnessChoice;
    const result = await submit(datasetHarnessSchema, { dataset, harness: chosen }, onSave);
    if (result.ok) setIsSaved(true);
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-4 text-sm">
      {LANGUAGES_WITH_PROFILES.map((language) => (
        <label key={language} className="grid gap-1">
          <span className="font-medium">{language}</span>
          <Select
            aria-label={`${language} harness`}
            value={choice[language] ?? ""}
            onChange={(event) => setChoice({ ...choice, [language]: event.target.value })}
          >
            <option value="">AutoCodeBench (default)</option>
            {PROFILES.filter(([, profileLanguage]) => profileLanguage === language).map(([profile]) => (
              <option key={profile} value={profile}>
                {profile}
              </option>
            ))}
          </Select>
        </label>
      ))}
      <Button type="submit" variant="secondary" disabled={isPending}>
        {isPending ? "Saving…" : "Save harness"}
      </Button>
      {isSaved ? (
        <p role="status" className="text-emerald-800">
          Saved: the next verification runs with it.
        </p>
      ) : null}
      {message ? <ErrorNote>{message}</ErrorNote> : null}
    </form>
  );
}
