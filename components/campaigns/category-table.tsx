"use client";

import { Button } from "@/components/ui/primitives";
import type { CategoryDefinition } from "@/lib/annotation/categories";

import { MoveButtons, moveRow } from "./move-buttons";

const cell =
  "block w-full rounded border-0 px-1.5 py-1 text-sm ring-1 ring-slate-300 focus:ring-2 focus:ring-indigo-500";

/** The campaign's error taxonomy as an editable table: key, label, description, invalidating, critic rule. */
export function CategoryTable({
  rows,
  onChange,
  error,
}: {
  rows: CategoryDefinition[];
  onChange: (rows: CategoryDefinition[]) => void;
  error?: string;
}) {
  function update(index: number, patch: Partial<CategoryDefinition>) {
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  }
  return (
    // min-w-0: a fieldset is as wide as its widest content by default, which would stop the table
    // below from scrolling inside it on a phone and push the page wider than the screen instead.
    <fieldset className="min-w-0 space-y-2">
      <legend className="text-sm font-medium text-slate-700">Error categories</legend>
      <p className="text-xs text-slate-500">
        The workspace shows them in this order; the first nine get the keys 1–9, and every one can be found by typing
        its name after C. Non-invalidating categories may be ticked on a valid record.
      </p>
      {/* relative: the header's screen-reader-only text is placed inside this scroller, not against the page (which it would widen). */}
      <div className="relative overflow-x-auto">
        <table className="min-w-full text-sm">
          <thead className="text-left text-xs text-slate-500">
            <tr>
              <th scope="col" className="w-6 px-1 py-1">
                #
              </th>
              <th scope="col" className="px-1 py-1">
                Key
              </th>
              <th scope="col" className="px-1 py-1">
                Label
              </th>
              <th scope="col" className="px-1 py-1">
                Description
              </th>
              <th scope="col" className="px-1 py-1">
                Invalidating
              </th>
              <th scope="col" className="px-1 py-1">
                Critic rule
              </th>
              <th scope="col" className="px-1 py-1">
                <span className="sr-only">Order and removal</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={index} className="align-top">
                <td className="px-1 py-1 text-xs text-slate-500 tabular-nums">{index + 1}</td>
                <td className="px-1 py-1">
                  <input
                    aria-label={`Key of category ${index + 1}`}
                    className={`${cell} w-44 font-mono text-xs`}
                    value={row.key}
                    onChange={(event) => update(index, { key: event.target.value })}
                    required
                  />
                </td>
                <td className="px-1 py-1">
                  <input
                    aria-label={`Label of category ${index + 1}`}
                    className={`${cell} w-44`}
                    value={row.label}
                    onChange={(event) => update(index, { label: event.target.value })}
                    required
                  />
                </td>
                <td className="px-1 py-1">
                  <input
                    aria-label={`Description of category ${index + 1}`}
                    className={`${cell} min-w-72`}
                    value={row.description}
                    onChange={(event) => update(index, { description: event.target.value })}
                  />
                </td>
                <td className="px-1 py-1 text-center">
                  <input
                    type="checkbox"
                    aria-label={`Category ${index + 1} makes a record invalid`}
                    className="mt-1.5 size-4"
                    checked={row.invalidating}
                    onChange={(event) => update(index, { invalidating: event.target.checked })}
                  />
                </td>
                <td className="px-1 py-1">
                  <input
                    aria-label={`Critic rule of category ${index + 1}`}
                    className={`${cell} w-52`}
                    value={row.criticRule ?? ""}
                    placeholder="none"
                    onChange={(event) => update(index, { criticRule: event.target.value || null })}
                  />
                </td>
                <td className="flex gap-1 px-1 py-1">
                  {/* The order is the workspace's order and its 1–9 keys. */}
                  <MoveButtons
                    index={index}
                    count={rows.length}
                    noun="category"
                    onMove={(step) => onChange(moveRow(rows, index, step))}
                  />
                  <Button
                    type="button"
                    variant="danger"
                    className="px-2 py-1 text-xs"
                    onClick={() => onChange(rows.filter((_, i) => i !== index))}
                    disabled={rows.length === 1}
                    aria-label={`Remove category ${index + 1}`}
                  >
                    Remove
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {error ? (
        <p className="text-xs text-red-700" role="alert">
          {error}
        </p>
      ) : null}
      <Button
        type="button"
        variant="secondary"
        onClick={() =>
          onChange([...rows, { key: "", label: "", description: "", invalidating: true, criticRule: null }])
        }
      >
        Add category
      </Button>
    </fieldset>
  );
}
