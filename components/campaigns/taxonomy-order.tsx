"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

import { Button, ErrorNote } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { reorderCategoriesSchema } from "@/lib/validation/campaigns";

import { MoveButtons, moveRow } from "./move-buttons";

type Category = { key: string; label: string };

/**
 * A running campaign's taxonomy order on its page: move categories up and down and save. The
 * workspace shows them in this order and numbers the first nine for the 1–9 keys, so the order is
 * fixed once items are labelled (the server refuses it too).
 */
export function TaxonomyOrder({
  campaignId,
  categories,
  isFixed,
  saveOrder,
}: {
  campaignId: string;
  categories: Category[];
  isFixed: boolean;
  saveOrder: Action<{ campaignId: string; keys: string[] }, { keys: string[] }>;
}) {
  const router = useRouter();
  const [rows, setRows] = useState(categories);
  const [isSaved, setSaved] = useState(false);
  const { submit, isPending, message: error } = useAction();
  const isChanged = rows.some((row, index) => row.key !== categories[index]?.key);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const result = await submit(reorderCategoriesSchema, { campaignId, keys: rows.map((row) => row.key) }, saveOrder);
    if (!result.ok) return;
    setSaved(true);
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-3 text-sm" aria-label="Order of the error categories">
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <p className="text-xs text-slate-500">
        {isFixed
          ? "The order is fixed once items are labelled."
          : "The workspace shows the categories in this order and gives the first nine the keys 1–9. The order can change until the first label."}
      </p>
      <ol className="space-y-1">
        {rows.map((row, index) => (
          <li key={row.key} className="flex items-center gap-2">
            <span className="w-5 shrink-0 text-right text-xs tabular-nums text-slate-500">{index + 1}</span>
            <span className="min-w-0 flex-1 truncate" title={row.key}>
              {row.label} <span className="font-mono text-xs text-slate-400">{row.key}</span>
            </span>
            <MoveButtons
              index={index}
              count={rows.length}
              noun="category"
              isDisabled={isFixed}
              onMove={(step) => {
                setSaved(false);
                setRows(moveRow(rows, index, step));
              }}
            />
          </li>
        ))}
      </ol>
      {isFixed ? null : (
        <div className="flex items-center gap-3">
          <Button type="submit" disabled={!isChanged || isPending}>
            {isPending ? "Saving…" : "Save order"}
          </Button>
          {isSaved ? (
            <span role="status" className="text-emerald-800">
              Order saved.
            </span>
          ) : null}
        </div>
      )}
    </form>
  );
}
