import {
  ENVIRONMENT_KIND_FORMATS,
  ENVIRONMENT_KINDS,
  type EnvironmentLock as Lock,
} from "@/lib/records/environment-spec";

/** What a version resolved, like a lock file: per kind, every entry installed (dependencies included). */
export function EnvironmentLock({ lock }: { lock: Lock | null }) {
  const kinds = ENVIRONMENT_KINDS.filter((kind) => (lock?.[kind]?.length ?? 0) > 0);
  if (!lock || kinds.length === 0) return <p className="text-slate-500">Nothing resolved.</p>;
  return (
    <dl className="grid gap-2 sm:grid-cols-2" aria-label="Resolved versions">
      {kinds.map((kind) => (
        <div key={kind}>
          <dt className="text-xs font-medium text-slate-600">{ENVIRONMENT_KIND_FORMATS[kind].label}</dt>
          <dd>
            <ul className="font-mono text-xs text-slate-800">
              {lock[kind]!.map((entry) => (
                <li key={entry}>{entry}</li>
              ))}
            </ul>
          </dd>
        </div>
      ))}
    </dl>
  );
}
