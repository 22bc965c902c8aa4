"use client";

import { useState } from "react";
import type { z } from "zod";

import { Button, ErrorNote, Field, Input, Select } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { CRITIC_KEY_PREFIX } from "@/lib/critics/key-variable";
import { DEFAULT_CRITIC_TEMPLATE } from "@/lib/critics/template";
import { saveCriticSchema } from "@/lib/validation/critics";

/** What the form shows of an existing critic: its endpoint and its newest version, never its key. */
export type CriticDraft = {
  name: string;
  baseUrl: string;
  model: string;
  apiKeyEnv: string | null;
  hasStoredKey: boolean;
  temperature: number;
  maxTokens: number;
  concurrency: number;
  timeoutMs: number;
  template: string;
};

const BLANK: CriticDraft = {
  name: "",
  baseUrl: "",
  model: "",
  apiKeyEnv: null,
  hasStoredKey: false,
  temperature: 0,
  maxTokens: 2048,
  concurrency: 4,
  timeoutMs: 60_000,
  template: DEFAULT_CRITIC_TEMPLATE,
};

/** Defines a critic or edits one; a used prompt version is never changed: saving makes the next one. */
export function CriticForm({
  critics,
  saveCritic,
}: {
  critics: CriticDraft[];
  saveCritic: Action<z.input<typeof saveCriticSchema>, { name: string; version: number; createdVersion: boolean }>;
}) {
  const [draft, setDraft] = useState<CriticDraft>(BLANK);
  const [saved, setSaved] = useState<string>();
  const { submit, isPending, message, fieldErrors } = useAction();
  const isExisting = critics.some((critic) => critic.name === draft.name);

  function onPick(name: string) {
    setSaved(undefined);
    setDraft(critics.find((critic) => critic.name === name) ?? BLANK);
  }

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "");
    const apiKeyEnv = text("apiKeyEnv").trim();
    const apiKey = text("apiKey");
    const result = await submit(
      saveCriticSchema,
      {
        name: text("name"),
        baseUrl: text("baseUrl"),
        model: text("model"),
        apiKeyEnv: apiKeyEnv === "" ? undefined : apiKeyEnv,
        apiKey: apiKey === "" ? undefined : apiKey,
        temperature: Number(text("temperature")),
        maxTokens: Number(text("maxTokens")),
        concurrency: Number(text("concurrency")),
        timeoutMs: Number(text("timeoutMs")),
        template: text("template"),
      },
      saveCritic,
    );
    if (result.ok) setSaved(`Saved ${result.data.name}, version ${result.data.version}.`);
  }

  const error = (name: string) => fieldErrors[name]?.[0];
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Critic">
      <Field label="Edit" htmlFor="critic-pick" hint="Pick a critic to change it, or start a new one.">
        <Select id="critic-pick" value={isExisting ? draft.name : ""} onChange={(event) => onPick(event.target.value)}>
          <option value="">New critic</option>
          {critics.map((critic) => (
            <option key={critic.name} value={critic.name}>
              {critic.name}
            </option>
          ))}
        </Select>
      </Field>
      {/* Keyed by the picked critic so every field starts from its values. */}
      <div key={draft.name || "new"} className="grid gap-3 sm:grid-cols-2">
        <Field label="Name" htmlFor="critic-name" error={error("name")}>
          <Input id="critic-name" name="name" defaultValue={draft.name} required maxLength={100} />
        </Field>
        <Field
          label="Base URL"
          htmlFor="critic-base-url"
          error={error("baseUrl")}
          hint="OpenAI-compatible, e.g. https://api.openai.com/v1"
        >
          <Input id="critic-base-url" name="baseUrl" defaultValue={draft.baseUrl} required />
        </Field>
        <Field label="Model" htmlFor="critic-model" error={error("model")}>
          <Input id="critic-model" name="model" defaultValue={draft.model} required />
        </Field>
        <Field
          label="API key environment variable"
          htmlFor="critic-key-env"
          error={error("apiKeyEnv")}
          hint={`Read by the workers; preferred over a stored key. Only names starting with ${CRITIC_KEY_PREFIX}, which the operator sets.`}
        >
          <Input
            id="critic-key-env"
            name="apiKeyEnv"
            defaultValue={draft.apiKeyEnv ?? ""}
            placeholder={`${CRITIC_KEY_PREFIX}OPENAI`}
          />
        </Field>
        <Field
          label="API key"
          htmlFor="critic-key"
          error={error("apiKey")}
          hint={
            draft.hasStoredKey
              ? "A key is stored; leave empty to keep it (a base URL on another host needs it again). It is never shown again."
              : "Stored sealed and never shown again."
          }
        >
          <Input id="critic-key" name="apiKey" type="password" autoComplete="off" />
        </Field>
        <Field label="Temperature" htmlFor="critic-temperature" error={error("temperature")}>
          <Input
            id="critic-temperature"
            name="temperature"
            type="number"
            step="0.1"
            min="0"
            max="2"
            defaultValue={draft.temperature}
          />
        </Field>
        <Field label="Max tokens" htmlFor="critic-max-tokens" error={error("maxTokens")}>
          <Input id="critic-max-tokens" name="maxTokens" type="number" min="16" defaultValue={draft.maxTokens} />
        </Field>
        <Field label="Requests at once" htmlFor="critic-concurrency" error={error("concurrency")}>
          <Input
            id="critic-concurrency"
            name="concurrency"
            type="number"
            min="1"
            max="64"
            defaultValue={draft.concurrency}
          />
        </Field>
        <Field label="Timeout per request (ms)" htmlFor="critic-timeout" error={error("timeoutMs")}>
          <Input id="critic-timeout" name="timeoutMs" type="number" min="1000" defaultValue={draft.timeoutMs} />
        </Field>
        <div className="sm:col-span-2">
          <Field
            label="Prompt template"
            htmlFor="critic-template"
            error={error("template")}
            hint="Fields: {{question}} {{solution}} {{demo_test}} {{full_test}} {{language}} {{rules}}. A version used by a run never changes: saving a changed one makes the next version."
          >
            <textarea
              id="critic-template"
              name="template"
              defaultValue={draft.template}
              rows={12}
              className="block w-full rounded-md border-0 px-2.5 py-1.5 font-mono text-xs ring-1 ring-slate-300 focus:ring-2 focus:ring-indigo-500"
            />
          </Field>
        </div>
      </div>
      {message ? <ErrorNote>{message}</ErrorNote> : null}
      {saved ? (
        <p role="status" className="text-sm text-emerald-800">
          {saved}
        </p>
      ) : null}
      <Button type="submit" disabled={isPending}>
        Save critic
      </Button>
    </form>
  );
}
