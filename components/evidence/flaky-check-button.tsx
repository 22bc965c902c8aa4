"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { z } from "zod";

import { Button } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { DEFAULT_REPEAT } from "@/lib/evidence/flaky";
import type { Action } from "@/lib/actions/result";
import { countOf } from "@/lib/format/count";
import { recordFlakyCheckSchema } from "@/lib/validation/evidence";

type CheckFlakiness = Action<z.input<typeof recordFlakyCheckSchema>, { flaky: boolean | null; outcomes: string[] }>;

/** Runs the record's tests several times (alone on the sandbox) and says whether their outcomes differ. */
export function FlakyCheckButton({ recordId, onCheck }: { recordId: number; onCheck: CheckFlakiness }) {
  const router = useRouter();
  const { submit, isPending, message } = useAction();
  const [outcomes, setOutcomes] = useState<string[] | null>(null);

  async function check() {
    const result = await submit(recordFlakyCheckSchema, { recordId, repeat: DEFAULT_REPEAT }, onCheck);
    if (!result.ok) return;
    setOutcomes(result.data.outcomes);
    router.refresh();
  }

  return (
    <div className="space-y-1 text-sm">
      <Button type="button" onClick={check} disabled={isPending}>
        {isPending
          ? `Running the tests ${DEFAULT_REPEAT} times…`
          : `Check for flaky tests (${countOf(DEFAULT_REPEAT, "run")})`}
      </Button>
      {message ? (
        <p role="alert" className="text-red-700">
          {message}
        </p>
      ) : null}
      {outcomes ? (
        <p className="text-xs text-slate-600" data-testid="flaky-outcomes">
          Demo/full outcomes per run: {outcomes.join(" · ")}
        </p>
      ) : null}
    </div>
  );
}
