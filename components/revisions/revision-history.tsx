import { Badge } from "@/components/ui/primitives";

export type RevisionHistoryEntry = {
  number: number;
  status: "ORIGINAL" | "PROPOSED" | "ACCEPTED" | "REJECTED";
  baseNumber: number | null;
  diffs: { field: string; diff: string }[];
  author: string | null;
  reason: string | null;
  categories: string[] | null;
  isRationaleHidden: boolean;
  evidence: { demoOutcome: string | null; fullOutcome: string | null };
  check: { valid: boolean; checker: string | null } | null;
  createdAt: Date;
};

const TONE = { ORIGINAL: "gray", PROPOSED: "amber", ACCEPTED: "green", REJECTED: "red" } as const;
const FIELD_NAMES: Record<string, string> = {
  question: "Statement",
  canonical_solution: "Solution",
  demo_test_func: "Demo test",
  full_test_func: "Full test",
};

function lineClass(line: string): string {
  if (line.startsWith("+")) return "bg-emerald-50 text-emerald-900";
  if (line.startsWith("-")) return "bg-red-50 text-red-900";
  return "text-slate-500";
}

/**
 * A record's revisions, newest first, each as a diff against the one it was edited from. While
 * `areJudgementsHidden` (before the viewer's first label on an item of a blind campaign) other
 * people's names, reasons and checks are not in the data, and the list says why.
 */
export function RevisionHistory({
  current,
  revisions,
  areJudgementsHidden,
}: {
  current: number;
  revisions: RevisionHistoryEntry[];
  areJudgementsHidden: boolean;
}) {
  return (
    <>
      {areJudgementsHidden ? (
        <p className="text-xs text-slate-500" data-testid="revision-judgements-hidden">
          Who repaired or checked this record, why, and what checks decided are hidden until your first label on it in a
          blind campaign.
        </p>
      ) : null}
      <ol className="space-y-3 text-sm" aria-label="Revisions">
        {revisions.map((revision) => (
          <li key={revision.number} className="space-y-1" data-testid={`revision-${revision.number}`}>
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium">Revision {revision.number}</span>
              <Badge tone={TONE[revision.status]}>{revision.status.toLowerCase()}</Badge>
              {revision.number === current ? <Badge tone="indigo">current</Badge> : null}
              <span className="text-xs text-slate-500">
                {revision.status === "ORIGINAL" ? "the import" : revision.author ? `by ${revision.author}` : null}
                {revision.evidence.demoOutcome
                  ? ` · demo ${revision.evidence.demoOutcome}, full ${revision.evidence.fullOutcome}`
                  : ""}
                {revision.check
                  ? ` · checked ${revision.check.valid ? "valid" : "invalid"} by ${revision.check.checker}`
                  : ""}
              </span>
            </div>
            {revision.isRationaleHidden && areJudgementsHidden ? null : revision.isRationaleHidden ? (
              <p className="text-xs text-slate-500">Its reason is hidden until a second person has checked it blind.</p>
            ) : revision.reason ? (
              <p className="text-xs">
                {revision.reason}
                {revision.categories?.length ? ` (${revision.categories.join(", ")})` : ""}
              </p>
            ) : null}
            {revision.diffs.map((diff) => (
              <figure key={diff.field}>
                <figcaption className="text-xs text-slate-600">{FIELD_NAMES[diff.field] ?? diff.field}</figcaption>
                <pre className="max-h-60 overflow-auto rounded bg-slate-50 p-2 font-mono text-xs">
                  {diff.diff.split("\n").map((line, index) => (
                    <div key={index} className={lineClass(line)}>
                      {line}
                    </div>
                  ))}
                </pre>
              </figure>
            ))}
          </li>
        ))}
      </ol>
    </>
  );
}
