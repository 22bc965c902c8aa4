import { Badge } from "@/components/ui/primitives";

type Revision = { revision: number; valid: boolean; categories: string[]; note: string | null; createdAt: Date };

/** The versions of the viewer's own label on this item, newest first, with the pre-reveal label in blind mode. */
export function RevisionHistory({
  revisions,
  categoryLabels,
  preReveal,
}: {
  revisions: Revision[];
  categoryLabels: Record<string, string>;
  preReveal: { valid: boolean; categories: string[] } | null;
}) {
  return (
    <div className="space-y-3 text-sm">
      {preReveal ? (
        <p className="text-slate-600">
          Before the critic was shown:{" "}
          {preReveal.valid ? <Badge tone="green">valid</Badge> : <Badge tone="red">invalid</Badge>}{" "}
          {preReveal.categories.map((key) => categoryLabels[key] ?? key).join(", ")}
        </p>
      ) : null}
      <ol className="divide-y divide-slate-100" aria-label="Revisions">
        {revisions.map((revision) => (
          <li key={revision.revision} className="flex flex-wrap items-start gap-2 py-1.5">
            <span className="w-12 shrink-0 text-xs text-slate-500">rev {revision.revision}</span>
            {revision.valid ? <Badge tone="green">valid</Badge> : <Badge tone="red">invalid</Badge>}
            <span className="min-w-0 flex-1 text-slate-700">
              {revision.categories.map((key) => categoryLabels[key] ?? key).join(", ")}
              {revision.note ? <span className="block truncate text-slate-500">{revision.note}</span> : null}
            </span>
            <time className="text-xs text-slate-400" dateTime={revision.createdAt.toISOString()}>
              {revision.createdAt.toISOString().slice(0, 16).replace("T", " ")}
            </time>
          </li>
        ))}
      </ol>
    </div>
  );
}
