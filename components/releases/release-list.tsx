import Link from "next/link";
import type { ReactNode } from "react";

import { RefreshWhileRunning } from "@/components/jobs/refresh-while-running";
import { Card } from "@/components/ui/primitives";
import type { ReleaseListEntry } from "@/lib/releases/types";

/**
 * A dataset's releases, a page at a time, each with its archive's download link once it is built
 * ("being cut…" while a job builds it, with the page following it; the reason when it failed);
 * `children` goes above the list (the form that cuts one, for those who may).
 */
export function ReleaseList({
  datasetPath,
  releases,
  isOlderPage,
  children,
}: {
  /** The dataset page's path, `/datasets/{name}`. */
  datasetPath: string;
  releases: { releases: ReleaseListEntry[]; nextCursor: string | null };
  /** This page is not the newest one: it links back to it. */
  isOlderPage: boolean;
  children?: ReactNode;
}) {
  return (
    <Card title="Releases" className="mb-4">
      <div className="space-y-3">
        {children}
        {releases.releases.length === 0 ? (
          <p className="text-sm text-slate-500">No release yet.</p>
        ) : (
          <table className="min-w-full text-sm" aria-label="Releases">
            <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th className="py-1 pr-3">Name</th>
                <th className="py-1 pr-3">Cut</th>
                <th className="py-1 pr-3">In</th>
                <th className="py-1 pr-3">Repaired</th>
                <th className="py-1 pr-3">Out</th>
                <th className="py-1">Download</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {releases.releases.map((release) => (
                <tr key={release.name} aria-busy={release.status === "BUILDING" ? true : undefined}>
                  <td className="py-1 pr-3 font-mono">{release.name}</td>
                  <td className="py-1 pr-3 text-slate-600">
                    {release.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC
                  </td>
                  <td className="py-1 pr-3 tabular-nums">{release.records.toLocaleString("en")}</td>
                  <td className="py-1 pr-3 tabular-nums">{release.revised.toLocaleString("en")}</td>
                  <td className="py-1 pr-3 tabular-nums">{release.excluded.toLocaleString("en")}</td>
                  <td className="py-1">
                    {release.status === "READY" ? (
                      <a
                        href={`/api/v1${datasetPath}/releases/${encodeURIComponent(release.name)}/archive`}
                        download
                        className="text-indigo-700 hover:underline"
                      >
                        {release.name}.tar.gz
                      </a>
                    ) : release.status === "BUILDING" ? (
                      <span className="text-slate-600">being cut…</span>
                    ) : (
                      <span className="text-red-700">failed: {release.failureReason ?? "its job failed"}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {/* A large dataset's release is built by a job: the list follows it until it is ready. */}
        <RefreshWhileRunning
          isRunning={releases.releases.some((release) => release.status === "BUILDING")}
          everyMs={2000}
        />
        <nav className="flex justify-between text-sm" aria-label="Releases pages">
          {isOlderPage ? (
            <Link href={datasetPath} className="text-indigo-700 hover:underline">
              ← Newest releases
            </Link>
          ) : (
            <span />
          )}
          {releases.nextCursor ? (
            <Link
              href={`${datasetPath}?${new URLSearchParams({ releases: releases.nextCursor })}`}
              className="text-indigo-700 hover:underline"
            >
              Older releases →
            </Link>
          ) : null}
        </nav>
      </div>
    </Card>
  );
}
