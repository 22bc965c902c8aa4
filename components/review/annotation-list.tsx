import { formatDuration } from "@/components/agreement/format";
import { OutcomeBadge } from "@/components/records/run-result";
import { Badge } from "@/components/ui/primitives";

export type ReviewAnnotation = {
  id: string;
  valid: boolean;
  categories: string[];
  note: string | null;
  testLine: number | null;
  needsReview: boolean;
  activeMs: number;
  revision: number;
  preRevealValid: boolean | null;
  updatedAt: Date;
  user: { email: string; name: string | null };
  runs: { id: string; kind: string; outcome: string; exitCode: number | null; timeMs: number; createdAt: Date }[];
};

export function VerdictBadge({ valid }: { valid: boolean }) {
  return valid ? <Badge tone="green">Valid</Badge> : <Badge tone="red">Invalid</Badge>;
}

/** Every annotator's label on the item: who, verdict, categories, note, test line, active time, pre-reveal label (blind) and the runs they attached. */
export function AnnotationList({
  annotations,
  categoryLabels,
  isBlind,
}: {
  annotations: ReviewAnnotation[];
  categoryLabels: Record<string, string>;
  isBlind: boolean;
}) {
  if (annotations.length === 0) return <p className="text-sm text-slate-500">Nobody labelled this item yet.</p>;
  return (
    <ul className="space-y-3 text-sm" aria-label="Annotations">
      {annotations.map((annotation) => (
        <li
          key={annotation.id}
          className="rounded-md p-3 ring-1 ring-slate-200"
          aria-label={`Label by ${annotation.user.email}`}
        >
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium text-slate-800" title={annotation.user.email}>
              {annotation.user.name ?? annotation.user.email}
            </span>
            <VerdictBadge valid={annotation.valid} />
            {annotation.needsReview ? <Badge tone="amber">asked for review</Badge> : null}
            <span className="ml-auto text-xs text-slate-500">
              rev {annotation.revision} · active {formatDuration(annotation.activeMs)} ·{" "}
              {annotation.updatedAt.toISOString().slice(0, 16).replace("T", " ")}
            </span>
          </div>
          {annotation.categories.length > 0 ? (
            <ul className="mt-2 flex flex-wrap gap-1" aria-label="Categories">
              {annotation.categories.map((key) => (
                <li key={key}>
                  <Badge>{categoryLabels[key] ?? key}</Badge>
                </li>
              ))}
            </ul>
          ) : null}
          {annotation.note ? <p className="mt-2 whitespace-pre-wrap text-slate-700">{annotation.note}</p> : null}
          <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
            {annotation.testLine ? (
              <div>
                <dt className="inline">Test line </dt>
                <dd className="inline font-mono">{annotation.testLine}</dd>
              </div>
            ) : null}
            {isBlind && annotation.preRevealValid !== null ? (
              <div>
                <dt className="inline">Before the critic was shown: </dt>
                <dd className="inline">{annotation.preRevealValid ? "valid" : "invalid"}</dd>
              </div>
            ) : null}
          </dl>
          {annotation.runs.length > 0 ? (
            <ul className="mt-2 space-y-1 text-xs" aria-label="Attached runs">
              {annotation.runs.map((run) => (
                <li key={run.id} className="flex flex-wrap items-center gap-2">
                  <span className="w-14 text-slate-500">{run.kind.toLowerCase()}</span>
                  <OutcomeBadge outcome={run.outcome} />
                  <span className="text-slate-500">
                    exit {run.exitCode ?? "—"} · {Math.round(run.timeMs)} ms
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
