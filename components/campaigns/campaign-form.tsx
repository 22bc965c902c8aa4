"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";

import { LanguagePicker } from "@/components/admin/language-picker";
import { Button, ErrorNote, Field, Input, Select } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { CategoryDefinition } from "@/lib/annotation/categories";
import type { PreLabelVisibilityName } from "@/lib/evidence/visibility";
import { isLanguage } from "@/lib/records/languages";
import { type CreateCampaignFields, createCampaignSchema, FINAL_RULES } from "@/lib/validation/campaigns";
import type { Action } from "@/lib/actions/result";

import { CategoryTable } from "./category-table";
import { GoldShareField, ShareField } from "./share-field";
import { VisibilitySelect } from "./visibility-select";
import { countOf } from "@/lib/format/count";

/** What creation answers; `drawingItems` counts the records a job is drawing (a large sample), else null. */
type Created = { id: string; name: string; itemCount: number; seed: string; drawingItems: number | null };

function optionalNumber(value: FormDataEntryValue | null): number | null {
  const text = String(value ?? "").trim();
  return text === "" ? null : Number(text);
}

/** The admin's form for a new campaign: dataset, sample, overlap, what annotators see before labelling, final rule, lease and taxonomy. */
export function CampaignForm({
  datasets,
  defaultCategories,
  createCampaign,
}: {
  datasets: { name: string; languages: string[] }[];
  defaultCategories: CategoryDefinition[];
  createCampaign: Action<CreateCampaignFields, Created>;
}) {
  const router = useRouter();
  const [dataset, setDataset] = useState(datasets[0]?.name ?? "");
  const [overlap, setOverlap] = useState(1);
  const [categories, setCategories] = useState(defaultCategories);
  const [created, setCreated] = useState<Created>();
  const { submit, isPending, message: error, fieldErrors } = useAction();
  const datasetLanguages = datasets.find((entry) => entry.name === dataset)?.languages ?? [];

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input: CreateCampaignFields = {
      dataset,
      name: String(form.get("name")),
      languages: form.getAll("languages").map(String).filter(isLanguage),
      perLanguage: optionalNumber(form.get("perLanguage")),
      seed: String(form.get("seed") ?? "").trim() || undefined,
      overlap,
      agreementFraction: overlap === 1 ? (optionalNumber(form.get("agreementFraction")) ?? 0) : 0,
      visibility: String(form.get("visibility")) as PreLabelVisibilityName,
      sampling: form.get("sampling") === "suspicion" ? "suspicion" : "random",
      requireInvalidNote: form.get("requireInvalidNote") === "on",
      finalRule: String(form.get("finalRule")) as (typeof FINAL_RULES)[number],
      leaseMinutes: optionalNumber(form.get("leaseMinutes")) ?? 30,
      goldShare: optionalNumber(form.get("goldShare")) ?? 0,
      categories,
    };
    const result = await submit(createCampaignSchema, input, createCampaign);
    if (!result.ok) return;
    setCreated(result.data);
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-5">
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      {created ? (
        <div className="rounded-md bg-emerald-50 p-3 text-sm ring-1 ring-emerald-200" role="status">
          Created{" "}
          <Link href={`/campaigns/${created.id}`} className="font-medium text-emerald-900 underline">
            {created.name}
          </Link>
          {created.drawingItems === null
            ? ` with ${countOf(created.itemCount, "item")}.`
            : `; drawing up to ${countOf(created.drawingItems, "item")} in the background (its page shows them once they are in).`}{" "}
          Seed: <code className="font-mono">{created.seed}</code> (use it to draw the same sample again).
        </div>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        <Field label="Dataset" htmlFor="campaign-dataset" error={fieldErrors.dataset?.[0]}>
          <Select
            id="campaign-dataset"
            value={dataset}
            onChange={(event) => setDataset(event.target.value)}
            className="w-full"
          >
            {datasets.map((entry) => (
              <option key={entry.name} value={entry.name}>
                {entry.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Campaign name" htmlFor="campaign-name" error={fieldErrors.name?.[0]}>
          <Input id="campaign-name" name="name" required maxLength={100} />
        </Field>
      </div>
      <div>
        <span className="mb-1 block text-sm font-medium text-slate-700">Languages</span>
        <LanguagePicker key={dataset} name="languages" defaultValue={datasetLanguages} />
        <p className="mt-1 text-xs text-slate-500">Preselected: every language in {dataset || "the dataset"}.</p>
        {fieldErrors.languages ? (
          <p className="text-xs text-red-700" role="alert">
            {fieldErrors.languages[0]}
          </p>
        ) : null}
      </div>
      <div className="grid gap-4 md:grid-cols-3">
        <Field
          label="Records per language"
          htmlFor="campaign-per-language"
          hint="Empty: all of them."
          error={fieldErrors.perLanguage?.[0]}
        >
          <Input id="campaign-per-language" name="perLanguage" type="number" min={1} />
        </Field>
        <Field
          label="Seed"
          htmlFor="campaign-seed"
          hint="Optional; a random one is drawn and shown."
          error={fieldErrors.seed?.[0]}
        >
          <Input id="campaign-seed" name="seed" maxLength={100} />
        </Field>
        <Field label="Lease minutes" htmlFor="campaign-lease" error={fieldErrors.leaseMinutes?.[0]}>
          <Input id="campaign-lease" name="leaseMinutes" type="number" min={1} max={1440} defaultValue={30} required />
        </Field>
        <Field label="Overlap K (annotators per record)" htmlFor="campaign-overlap" error={fieldErrors.overlap?.[0]}>
          <Input
            id="campaign-overlap"
            type="number"
            min={1}
            max={10}
            value={overlap}
            onChange={(event) => setOverlap(Math.max(1, Number(event.target.value) || 1))}
            required
          />
        </Field>
        {overlap === 1 ? (
          <ShareField
            label="Agreement subset fraction"
            id="campaign-agreement"
            name="agreementFraction"
            max={1}
            defaultValue={0}
            hint="0–1: share of records that get a second annotator."
            error={fieldErrors.agreementFraction?.[0]}
          />
        ) : null}
        <GoldShareField
          defaultValue={0}
          hint="0–0.5: share of each annotator's items drawn from the dataset's gold records."
          error={fieldErrors.goldShare?.[0]}
        />
        <Field label="Final-label rule" htmlFor="campaign-final-rule" error={fieldErrors.finalRule?.[0]}>
          <Select id="campaign-final-rule" name="finalRule" defaultValue="consensus" className="w-full">
            {FINAL_RULES.map((rule) => (
              <option key={rule} value={rule}>
                {rule}
              </option>
            ))}
          </Select>
        </Field>
        <Field
          label="Sampling"
          htmlFor="campaign-sampling"
          hint="Random estimates the dataset's validity. Suspicion takes the records the evidence points at first (weak tests, flaky, unsolved, critic vs execution), for cleaning; reports leave it out of validity rates. It reads only what annotators are shown before their first label (the critic only under All), so it needs All but the critic or All."
          error={fieldErrors.sampling?.[0]}
        >
          <Select id="campaign-sampling" name="sampling" defaultValue="random" className="w-full">
            <option value="random">Random (for the validity estimate)</option>
            <option value="suspicion">Most suspicious first (for cleaning)</option>
          </Select>
        </Field>
      </div>
      <VisibilitySelect id="campaign-visibility" />
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" name="requireInvalidNote" className="mt-0.5 size-4" />
        <span>
          <span className="font-medium text-slate-800">Require a note on invalid labels</span>
          <span className="block text-xs text-slate-500">Off: an invalid label needs only its error categories.</span>
        </span>
      </label>
      <CategoryTable rows={categories} onChange={setCategories} error={fieldErrors.categories?.[0]} />
      <Button type="submit" disabled={isPending}>
        {isPending ? "Creating…" : "Create campaign"}
      </Button>
    </form>
  );
}
