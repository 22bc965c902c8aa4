import { Badge } from "@/components/ui/primitives";

/** A record's gold answer, read-only (reviewers). */
export function GoldAnswerView({
  answer,
}: {
  answer: { valid: boolean; categories: string[]; note: string | null } | null;
}) {
  if (!answer) return <p className="text-sm text-slate-500">Not a gold record.</p>;
  return (
    <div className="space-y-1 text-sm">
      <p>
        Known verdict: <Badge tone={answer.valid ? "green" : "red"}>{answer.valid ? "valid" : "invalid"}</Badge>
      </p>
      {answer.categories.length ? <p className="text-slate-600">Categories: {answer.categories.join(", ")}</p> : null}
      {answer.note ? <p className="text-slate-600">{answer.note}</p> : null}
    </div>
  );
}
