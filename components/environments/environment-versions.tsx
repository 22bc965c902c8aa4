import { Badge } from "@/components/ui/primitives";
import { formatSize } from "@/lib/environments/size";
import { describeSpec, type EnvironmentLock, type EnvironmentSpec } from "@/lib/records/environment-spec";

type Version = {
  version: number;
  status: "BUILDING" | "READY" | "FAILED";
  spec: EnvironmentSpec | null;
  lock: EnvironmentLock | null;
  error: string | null;
  sizeBytes: number | null;
  createdBy: string | null;
  finishedAt: Date | null;
  isInUse: boolean;
};

const STATUS_TONE = { BUILDING: "amber", READY: "green", FAILED: "red" } as const;

function utc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** A page of a dataset's environment versions: what each declared, how its build ended, which is in use. */
export function EnvironmentVersions({ versions, inUse }: { versions: Version[]; inUse: number | null }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm" aria-label="Environment versions">
        <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="py-1 pr-3">Version</th>
            <th className="py-1 pr-3">Status</th>
            <th className="py-1 pr-3">Declared</th>
            <th className="py-1 pr-3">By</th>
            <th className="py-1 pr-3">Finished</th>
            <th className="py-1">Size</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {versions.map((version) => (
            <tr key={version.version} data-testid={`environment-version-${version.version}`}>
              <td className="py-1.5 pr-3 align-top tabular-nums">{version.version}</td>
              <td className="py-1.5 pr-3 align-top whitespace-nowrap">
                <Badge tone={STATUS_TONE[version.status]}>{version.status.toLowerCase()}</Badge>
                {version.isInUse ? (
                  <>
                    {" "}
                    <Badge tone="indigo">in use</Badge>
                  </>
                ) : null}
              </td>
              <td className="py-1.5 pr-3 align-top">
                <span className="font-mono text-xs">{version.spec ? describeSpec(version.spec) : "—"}</span>
                {version.status === "FAILED" ? (
                  <p className="mt-1 text-xs text-red-800">
                    {`${(version.error ?? "The build failed").replace(/\.$/, "")}.`}{" "}
                    {inUse === null
                      ? "No version is in use: runs see the sandbox's own libraries only."
                      : inUse < version.version
                        ? `Version ${inUse} stays in use.`
                        : null}
                  </p>
                ) : null}
              </td>
              <td className="py-1.5 pr-3 align-top text-slate-600">{version.createdBy ?? "—"}</td>
              <td className="py-1.5 pr-3 align-top whitespace-nowrap text-slate-600">
                {version.finishedAt ? utc(version.finishedAt) : "—"}
              </td>
              <td className="py-1.5 align-top whitespace-nowrap tabular-nums">
                {version.sizeBytes !== null ? formatSize(version.sizeBytes) : "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
