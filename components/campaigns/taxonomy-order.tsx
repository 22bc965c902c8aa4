"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

import { Button, ErrorNote } from "@/components/ui/primitives";
import type { Action } from "@/lib/actions/result";

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
  const [error, setError] = useState<string>();
  const [isSaved, setSaved] = useState(false);
  const [isPending, setPending] = useState(false);
  const isChanged = rows.some((row, index) => row.key !== categories[index]?.key);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setSaved(false);
    try {
      const result = await saveOrder({ campaignId, keys: rows.map((row) => row.key) });
      if (!result.ok) return setError(result.message);
      setError(undefined);
      setSaved(true);
      router.refresh();
    } catch {
      setError("The server could not be reached — nothing was saved.");
    } finally {
      setPending(false);
    }
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
