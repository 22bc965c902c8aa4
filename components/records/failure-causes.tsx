import Link from "next/link";

import { Badge, Card } from "@/components/ui/primitives";
import { languageName } from "@/lib/records/languages";
import { describeMissing, type EnvironmentFailureKind } from "@/lib/runs/environment-failure";

type Group = {
  kind: EnvironmentFailureKind;
  missing: string;
  language: string;
  records: number;
  examples: { recordId: number; line: number }[];
};

/**
 * A verification batch's failures by cause: the records' own, the environment's (grouped by the
 * missing dependency, with the fix), and the records that could not run here at all.
 */
export function FailureCauses({
  failed,
  environmentFailed,
  unavailable,
  errored,
  groups,
  dataset,
}: {
  dataset: string;
  failed: number;
  environmentFailed: number;
  unavailable: number;
  errored: number;
  groups: Group[];
}) {
  if (failed + environmentFailed + unavailable + errored === 0) return null;
  return (
    <Card title="Failures by cause" className="mb-4">
      <ul className="space-y-1 text-sm" data-testid="failure-causes">
        <li>
          <Badge tone="red">the record: {failed}</Badge> its solution fails its tests (the outcomes below): counted
          invalid.
        </li>
        <li>
          <Badge tone="amber">environment: {environmentFailed}</Badge> a module, header, package, library or crate the
          run needs is not installed here: not run, neither valid nor invalid.
        </li>
        {unavailable ? (
          <li>
            <Badge tone="amber">unavailable here: {unavailable}</Badge> no toolchain for the language here.
          </li>
        ) : null}
        {errored ? (
          <li>
            <Badge tone="gray">errored: {errored}</Badge> the result could not be stored or the sandbox failed.
          </li>
        ) : null}
      </ul>
      {groups.length > 0 ? (
        <>
          <table className="mt-3 w-full text-sm" data-testid="environment-failures">
            <thead className="text-left text-xs uppercase text-slate-500">
              <tr>
                <th className="py-1">Missing</th>
                <th className="py-1">Language</th>
                <th className="py-1">Records</th>
                <th className="py-1">For example</th>
              </tr>
            </thead>
            <tbody>
              {groups.map((group) => (
                <tr key={`${group.kind}:${group.missing}:${group.language}`} className="border-t border-slate-100">
                  <td className="py-1.5 font-mono text-xs">{describeMissing(group)}</td>
                  <td className="py-1.5">{languageName(group.language)}</td>
                  <td className="py-1.5">{group.records}</td>
                  <td className="py-1.5">
                    {group.examples.map((example, index) => (
                      <span key={example.recordId}>
                        {index > 0 ? ", " : ""}
                        <Link href={`/records/${example.recordId}`} className="text-indigo-700 hover:underline">
                          line {example.line}
                        </Link>
                      </span>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-3 text-sm text-slate-700" data-testid="environment-fix">
            To fix: add what is missing, pinned, to{" "}
            <Link
              href={`/datasets/${encodeURIComponent(dataset)}/environment`}
              className="text-indigo-700 hover:underline"
            >
              the dataset&rsquo;s environment
            </Link>{" "}
            (a Python or npm package, a Go module, a Maven artifact, or the Debian package that holds a header or
            library), or have the operator install what every dataset needs into the sandbox (docs/sandbox.md); then
            verify again: the next batch verifies these records again.
          </p>
        </>
      ) : null}
    </Card>
  );
}
