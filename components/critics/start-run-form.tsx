"use client";

import { useRouter } from "next/navigation";
import type { z } from "zod";

import { Button, ErrorNote, Field, Input, Select } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { startCriticRunSchema } from "@/lib/validation/critics";

/** Starts a run of a critic's newest version over a dataset, a language of it, or a campaign's sample. */
export function StartRunForm({
  critics,
  datasets,
  startRun,
}: {
  critics: { name: string; version: number }[];
  datasets: string[];
  startRun: Action<z.input<typeof startCriticRunSchema>, { runId: string }>;
}) {
  const router = useRouter();
  const { submit, isPending, message, fieldErrors } = useAction();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const optional = (name: string) => {
      const value = String(form.get(name) ?? "").trim();
      return value === "" ? undefined : value;
    };
    const result = await submit(
      startCriticRunSchema,
      {
        critic: String(form.get("critic") ?? ""),
        dataset: String(form.get("dataset") ?? ""),
        language: optional("language"),
        campaignId: optional("campaignId"),
      },
      startRun,
    );
    if (result.ok) router.push(`/critics/runs/${encodeURIComponent(result.data.runId)}`);
  }

  if (critics.length === 0) return <p className="text-sm text-slate-500">Define a critic first.</p>;
  return (
    <form onSubmit={onSubmit} className="grid gap-3 sm:grid-cols-4" aria-label="Start a critic run">
      <Field label="Critic" htmlFor="run-critic" error={fieldErrors.critic?.[0]}>
        <Select id="run-critic" name="critic" className="w-full">
          {critics.map((critic) => (
            <option key={critic.name} value={critic.name}>
              {critic.name} (version {critic.version})
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Dataset" htmlFor="run-dataset" error={fieldErrors.dataset?.[0]}>
        <Select id="run-dataset" name="dataset" className="w-full">
          {datasets.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Language (optional)" htmlFor="run-language" error={fieldErrors.language?.[0]}>
        <Input id="run-language" name="language" placeholder="every language" />
      </Field>
      <Field
        label="Campaign id (optional)"
        htmlFor="run-campaign"
        error={fieldErrors.campaignId?.[0]}
        hint="Only its sample."
      >
        <Input id="run-campaign" name="campaignId" />
      </Field>
      <div className="sm:col-span-4">
        {message ? <ErrorNote>{message}</ErrorNote> : null}
        <Button type="submit" disabled={isPending} className="mt-2">
          Start run
        </Button>
      </div>
    </form>
  );
}
