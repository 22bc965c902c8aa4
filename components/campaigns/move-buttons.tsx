"use client";

import { Button } from "@/components/ui/primitives";

/** The list with the row at `index` swapped with its neighbour above (-1) or below (1). */
export function moveRow<T>(rows: T[], index: number, step: -1 | 1): T[] {
  const next = [...rows];
  [next[index], next[index + step]] = [next[index + step], next[index]];
  return next;
}

/** ↑ and ↓ for one row of an ordered list ("Move category 2 up"); the ends cannot move further. */
export function MoveButtons({
  index,
  count,
  noun,
  isDisabled = false,
  onMove,
}: {
  index: number;
  count: number;
  noun: string;
  isDisabled?: boolean;
  onMove: (step: -1 | 1) => void;
}) {
  return (
    <>
      <Button
        type="button"
        variant="secondary"
        className="px-2 py-1 text-xs"
        onClick={() => onMove(-1)}
        disabled={isDisabled || index === 0}
        aria-label={`Move ${noun} ${index + 1} up`}
        title="Move up"
      >
        ↑
      </Button>
      <Button
        type="button"
        variant="secondary"
        className="px-2 py-1 text-xs"
        onClick={() => onMove(1)}
        disabled={isDisabled || index === count - 1}
        aria-label={`Move ${noun} ${index + 1} down`}
        title="Move down"
      >
        ↓
      </Button>
    </>
  );
}
