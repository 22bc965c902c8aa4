"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { z } from "zod";

import { Button, ErrorNote, Field } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import {
  entriesFromLines,
  ENVIRONMENT_KIND_FORMATS,
  ENVIRONMENT_KINDS,
  type EnvironmentKind,
  type EnvironmentSpec,
} from "@/lib/records/environment-spec";
import { buildEnvironmentSchema } from "@/lib/validation/environments";

type Texts = Record<EnvironmentKind, string>;

function textsOf(spec: EnvironmentSpec | null): Texts {
  return Object.fromEntries(ENVIRONMENT_KINDS.map((kind) => [kind, (spec?.[kind] ?? []).join("\n")])) as Texts;
}

/**
 * Declares a new version of a dataset's environment: one text area per kind, an entry a line, each
 * pinned. Starts from the version in use; what was typed stays while a field error is fixed.
 */
export function EnvironmentForm({
  dataset,
  spec,
  onBuild,
}: {
  dataset: string;
  spec: EnvironmentSpec | null;
  onBuild: Action<z.input<typeof buildEnvironmentSchema>, { version: number }>;
}) {
  const router = useRouter();
  const [texts, setTexts] = useState<Texts>(() => textsOf(spec));
  const { submit, isPending, message, fieldErrors } = useAction();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const lists = Object.fromEntries(ENVIRONMENT_KINDS.map((kind) => [kind, entriesFromLines(texts[kind])]));
    const result = await submit(buildEnvironmentSchema, { dataset, ...lists }, onBuild);
    // The page then shows the new version's log, followed live.
    if (result.ok) router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="New environment version">
      <div className="grid gap-3 md:grid-cols-2">
        {ENVIRONMENT_KINDS.map((kind) => (
          <Field
            key={kind}
            label={ENVIRONMENT_KIND_FORMATS[kind].label}
            htmlFor={`environment-${kind}`}
            error={fieldErrors[kind]?.join(" ")}
            hint={`One a line, pinned, e.g. ${ENVIRONMENT_KIND_FORMATS[kind].example}`}
          >
            <textarea
              id={`environment-${kind}`}
              name={kind}
              value={texts[kind]}
              onChange={(event) => setTexts({ ...texts, [kind]: event.target.value })}
              placeholder={ENVIRONMENT_KIND_FORMATS[kind].example}
              rows={4}
              spellCheck={false}
              aria-invalid={fieldErrors[kind] ? true : undefined}
              className="block w-full rounded-md border-0 px-2.5 py-1.5 font-mono text-xs ring-1 ring-slate-300 focus:ring-2 focus:ring-indigo-500"
            />
          </Field>
        ))}
      </div>
      {fieldErrors.spec ? <ErrorNote>{fieldErrors.spec.join(" ")}</ErrorNote> : null}
      {message && !fieldErrors.spec ? <ErrorNote>{message}</ErrorNote> : null}
      <Button type="submit" disabled={isPending}>
        {isPending ? "Starting…" : "Build new version"}
      </Button>
    </form>
  );
}
