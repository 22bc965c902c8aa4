"use client";

import { Button, ErrorNote } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { recheckSandboxSchema } from "@/lib/validation/sandbox";

/** "Check again": probes isolation and every toolchain afresh, then the page shows the new answer. */
export function RecheckButton({ recheck }: { recheck: Action<Record<string, never>, null> }) {
  const { submit, isPending, message } = useAction();
  return (
    <div className="flex items-center gap-2">
      <Button type="button" disabled={isPending} onClick={() => submit(recheckSandboxSchema, {}, recheck)}>
        {isPending ? "Checking…" : "Check again"}
      </Button>
      {message ? <ErrorNote>{message}</ErrorNote> : null}
    </div>
  );
}
