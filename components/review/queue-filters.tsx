import Link from "next/link";

import { Button, Select } from "@/components/ui/primitives";

import type { QueueQuery } from "./queue-query";

type Option = { value: string; label: string };

/** Language, annotator and category filters as a plain GET form; the chosen queue tab is kept. */
export function QueueFilters({
  campaignId,
  query,
  languages,
  annotators,
  categories,
}: {
  campaignId: string;
  query: QueueQuery;
  languages: Option[];
  annotators: Option[];
  categories: Option[];
}) {
  const fields: { name: keyof QueueQuery; label: string; options: Option[] }[] = [
    { name: "language", label: "Language", options: languages },
    { name: "annotator", label: "Annotator", options: annotators },
    { name: "category", label: "Category", options: categories },
  ];
  return (
    <form
      method="get"
      action={`/campaigns/${campaignId}/review`}
      className="mb-4 flex flex-wrap items-end gap-3 text-sm"
      aria-label="Filters"
    >
      {query.queue ? <input type="hidden" name="queue" value={query.queue} /> : null}
      {query.look ? <input type="hidden" name="look" value={query.look} /> : null}
      {query.weakBelow !== undefined ? <input type="hidden" name="weakBelow" value={query.weakBelow} /> : null}
      {fields.map((field) => (
        <div key={field.name} className="space-y-1">
          <label htmlFor={`filter-${field.name}`} className="block text-xs font-medium text-slate-600">
            {field.label}
          </label>
          <Select
            id={`filter-${field.name}`}
            name={field.name}
            defaultValue={query[field.name] ?? ""}
            className="min-w-40"
          >
            <option value="">Any</option>
            {field.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        </div>
      ))}
      <Button type="submit" variant="secondary">
        Filter
      </Button>
      {query.language || query.annotator || query.category ? (
        <Link
          href={`/campaigns/${campaignId}/review${query.queue ? `?queue=${query.queue}` : ""}`}
          className="pb-1.5 text-indigo-700 hover:underline"
        >
          Clear filters
        </Link>
      ) : null}
    </form>
  );
}
