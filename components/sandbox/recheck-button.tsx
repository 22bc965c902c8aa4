"use client";

import { useState, useTransition } from "react";

import { Button, ErrorNote } from "@/components/ui/primitives";
import type { Action } from "@/lib/server/action";

/** "Check again": probes isolation and every toolchain afresh, then the page shows the new answer. */
export function RecheckButton({ recheck }: { recheck: Action<Record<string, never>, null> }) {
  const [error, setError] = useState<string>();
  const [isPending, startTransition] = useTransition();
  return (
    <div className="flex items-center gap-2">
      <Button
        type="button"
        disabled={isPending}
        onClick={() =>
          startTransition(async () => {
            const result = await recheck({});
            setError(result.ok ? undefined : result.message);
          })
        }
      >
        {isPending ? "Checking…" : "Check again"}
      </Button>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </div>
  );
}
