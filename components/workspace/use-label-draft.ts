"use client";

import { useEffect, useRef } from "react";

export type LabelDraft = {
  valid: boolean | null;
  categories: string[];
  note: string;
  testLine: string;
  needsReview: boolean;
  baseRevision: number;
};

const DRAFT_PREFIX = "verity:draft:";
const draftKey = (itemId: string) => `${DRAFT_PREFIX}${itemId}`;
const savedKey = (itemId: string) => `verity:saved:${itemId}`;

/** Drops every label draft kept in this browser (on sign-out, so the next person on it cannot read them). */
export function clearLabelDrafts(): void {
  for (const key of Object.keys(localStorage)) if (key.startsWith(DRAFT_PREFIX)) localStorage.removeItem(key);
}

function readDraft(itemId: string): LabelDraft | null {
  try {
    const raw = localStorage.getItem(draftKey(itemId));
    return raw ? (JSON.parse(raw) as LabelDraft) : null;
  } catch {
    return null;
  }
}

/**
 * Keeps an unsaved label in this browser (localStorage, one draft per item) so a reload restores
 * it. A draft is restored only onto the revision it was started from; `clear` drops it on submit.
 * `markSaved` remembers the revision just saved, so a page restored by Back (which shows what the
 * server sent before the submit) asks the server again instead of showing a stale empty form.
 */
export function useLabelDraft({
  itemId,
  current,
  pristine,
  loadedRevision,
  onRestore,
  onStale,
}: {
  itemId: string;
  current: LabelDraft;
  pristine: LabelDraft;
  loadedRevision: number;
  onRestore: (draft: LabelDraft) => void;
  onStale: () => void;
}) {
  const isRestored = useRef(false);
  const callbacks = useRef({ onRestore, onStale });
  useEffect(() => {
    callbacks.current = { onRestore, onStale };
  });

  useEffect(() => {
    const saved = Number(sessionStorage.getItem(savedKey(itemId)) ?? 0);
    if (saved > loadedRevision) callbacks.current.onStale();
    const draft = readDraft(itemId);
    if (draft && draft.baseRevision === loadedRevision) callbacks.current.onRestore(draft);
    else if (draft) localStorage.removeItem(draftKey(itemId));
    isRestored.current = true;
  }, [itemId, loadedRevision]);

  const serialized = JSON.stringify(current);
  const isPristine = serialized === JSON.stringify(pristine);
  useEffect(() => {
    if (!isRestored.current) return;
    if (isPristine) localStorage.removeItem(draftKey(itemId));
    else localStorage.setItem(draftKey(itemId), serialized);
  }, [itemId, serialized, isPristine]);

  return {
    clear: () => localStorage.removeItem(draftKey(itemId)),
    markSaved: (revision: number) => sessionStorage.setItem(savedKey(itemId), String(revision)),
  };
}
