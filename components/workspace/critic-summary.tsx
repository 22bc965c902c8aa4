"use client";

import { useEffect, useRef } from "react";

import { CriticPanel } from "@/components/records/critic-panel";
import { InlineMarkdown } from "@/components/records/question-markdown";
import { Badge } from "@/components/ui/primitives";
import type { CriticVerdict } from "@/lib/records/critic";

import { releaseKeys } from "./key-hold";
import { useWorkspace } from "./workspace-context";

/**
 * The critic as the workspace shows it: the verdict and each failed rule with its reason on
 * screen, the rest (passed rules, key points, reasoning, raw output) one click away. Hidden in
 * blind mode until the first label. When that label reveals it, it scrolls to the top of its pane
 * and takes focus, with the confirmation at its top, so the two are in view together.
 */
export function CriticSummary({
  itemId,
  critic,
  isVisible,
  hiddenBy,
}: {
  itemId: string;
  critic: CriticVerdict | null;
  isVisible: boolean;
  /** Why it is hidden (whyCriticHidden): this blind campaign until the first label, or another blind campaign holding the record. */
  hiddenBy: "this-campaign" | "another-campaign" | null;
}) {
  const section = useRef<HTMLElement>(null);
  const { revealedItemId } = useWorkspace();
  const isJustRevealed = isVisible && revealedItemId === itemId;

  useEffect(() => {
    if (!isJustRevealed) return;
    section.current?.scrollIntoView({ block: "start" });
    section.current?.focus({ preventScroll: true });
    // Keys pressed since the label was saved were kept for this moment (label-form.tsx).
    releaseKeys();
  }, [isJustRevealed]);

  const failed = critic?.rules.filter((rule) => rule.passed === false) ?? [];
  return (
    <section
      ref={section}
      tabIndex={-1}
      aria-label="Critic"
      className="rounded-lg bg-white p-3 text-sm shadow-sm ring-1 ring-slate-200 outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
      data-testid="critic"
    >
      <h2 className="sr-only">Critic</h2>
      {isJustRevealed ? (
        <p role="status" className="mb-2 rounded-md bg-emerald-50 px-3 py-2 text-emerald-900 ring-1 ring-emerald-200">
          Saved. The critic is now shown: revise your label if it changes your mind, or press Enter to go on.
        </p>
      ) : null}
      {!isVisible ? (
        <p className="text-slate-500" data-testid="critic-hidden">
          <span className="font-semibold text-slate-800">Critic · </span>
          {hiddenBy === "another-campaign"
            ? "The critic is hidden: this record is also an item of a blind campaign you have not labelled it in, so your label here is given without it too, and it stays hidden after it."
            : "The critic is hidden until you submit a first label."}
        </p>
      ) : !critic ? (
        <p className="text-slate-500">
          <span className="font-semibold text-slate-800">Critic · </span>No critic verdict for this record.
        </p>
      ) : (
        <div className="space-y-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-semibold text-slate-800">Critic</span>
            <span className="text-slate-600">Overall:</span>
            {critic.overallPass === true ? (
              <Badge tone="green">pass</Badge>
            ) : critic.overallPass === false ? (
              <Badge tone="red">fail</Badge>
            ) : (
              <Badge tone="amber">unclear</Badge>
            )}
            {critic.failedRules.length > 0 ? (
              <span className="text-slate-600">failed: {critic.failedRules.join(", ")}</span>
            ) : null}
          </div>
          {failed.length > 0 ? (
            <ul className="space-y-1" aria-label="Failed rules">
              {failed.map((rule, index) => (
                <li key={`${rule.rule}-${index}`} className="rounded bg-red-50/60 px-2 py-1 ring-1 ring-red-100">
                  <span className="font-medium text-red-900">{rule.rule}</span>
                  {rule.reason ? (
                    <span className="text-slate-700">
                      {" — "}
                      <InlineMarkdown source={rule.reason} />
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : null}
          <details>
            <summary className="cursor-pointer text-xs text-slate-600">All rules, key points and reasoning</summary>
            <div className="mt-2">
              <CriticPanel critic={critic} />
            </div>
          </details>
        </div>
      )}
    </section>
  );
}
