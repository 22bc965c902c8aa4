import { Badge } from "@/components/ui/primitives";

import { VerdictBadge } from "./annotation-list";

export type CurrentDecision = {
  revision: number;
  valid: boolean;
  categories: string[];
  reason: string;
  updatedAt: Date;
  reviewer: { email: string };
  revisions: {
    revision: number;
    valid: boolean;
    categories: string[];
    reason: string;
    createdAt: Date;
    reviewerId: string;
  }[];
};

/** The decision that stands and, below it, every revision newest first (who is known for the latest and for the viewer's own). */
export function DecisionHistory({
  decision,
  categoryLabels,
  viewerId,
}: {
  decision: CurrentDecision | null;
  categoryLabels: Record<string, string>;
  viewerId: string;
}) {
  if (!decision)
    return (
      <p className="text-sm text-slate-500" data-testid="current-decision">
        No reviewer has decided this item yet.
      </p>
    );
  const names = (keys: string[]) => keys.map((key) => categoryLabels[key] ?? key).join(", ");
  return (
    <div className="space-y-3 text-sm">
      <div className="rounded-md bg-slate-50 p-3 ring-1 ring-slate-200" data-testid="current-decision">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium">Decision (revision {decision.revision}):</span>
          <VerdictBadge valid={decision.valid} />
          <span className="text-slate-600">{names(decision.categories)}</span>
        </div>
        <p className="mt-1 whitespace-pre-wrap text-slate-700">{decision.reason}</p>
        <p className="mt-1 text-xs text-slate-500">
          by {decision.reviewer.email} · {decision.updatedAt.toISOString().slice(0, 16).replace("T", " ")}
        </p>
      </div>
      {decision.revisions.length > 1 ? (
        <ol className="divide-y divide-slate-100" aria-label="Decision revisions">
          {decision.revisions.map((revision) => (
            <li key={revision.revision} className="flex flex-wrap items-start gap-2 py-1.5">
              <span className="w-12 shrink-0 text-xs text-slate-500">rev {revision.revision}</span>
              <VerdictBadge valid={revision.valid} />
              <span className="min-w-0 flex-1 text-slate-700">
                {names(revision.categories)}
                <span className="block text-slate-500">{revision.reason}</span>
              </span>
              <span className="text-xs text-slate-400">
                {revision.revision === decision.revision ? (
                  decision.reviewer.email
                ) : revision.reviewerId === viewerId ? (
                  "you"
                ) : (
                  <Badge title={revision.reviewerId}>another reviewer</Badge>
                )}{" "}
                · {revision.createdAt.toISOString().slice(0, 16).replace("T", " ")}
              </span>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
