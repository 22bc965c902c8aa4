import Link from "next/link";

import { BuildLog } from "@/components/environments/build-log";
import { EnvironmentForm } from "@/components/environments/environment-form";
import { EnvironmentLock } from "@/components/environments/environment-lock";
import { EnvironmentVersions } from "@/components/environments/environment-versions";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { Card, PageHeader } from "@/components/ui/primitives";
import { formatSize } from "@/lib/environments/size";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { environmentLog, listEnvironments } from "@/lib/server/environments/environments";
import { pathSegment } from "@/lib/server/http";
import { orNotFound } from "@/lib/server/not-found";
import { environmentListQuerySchema } from "@/lib/validation/environments";

import { buildEnvironmentAction, environmentLogAction } from "./actions";

export const metadata = { title: "Environment" };
export const dynamic = "force-dynamic";

export default async function EnvironmentPage({
  params,
  searchParams,
}: {
  params: Promise<{ name: string }>;
  searchParams: Promise<Record<string, string>>;
}) {
  const name = pathSegment((await params).name);
  const datasetPath = `/datasets/${encodeURIComponent(name)}`;
  const path = `${datasetPath}/environment`;
  const actor = await requirePageActor("datasets:verify", path);
  const query = environmentListQuerySchema.safeParse(await searchParams);
  const before = query.success ? query.data.before : undefined;
  const page = await orNotFound(listEnvironments({ actor, datasetName: name, before }));
  // The version in use, from this page or (on an older page) read on its own.
  const current =
    page.inUse === null
      ? null
      : (page.versions.find((version) => version.isInUse) ??
        (await listEnvironments({ actor, datasetName: name, before: page.inUse + 1 })).versions[0] ??
        null);
  // The newest version's log: followed live while it builds, kept in view once it ended.
  const newest = before ? undefined : page.versions[0];
  const newestLog = newest ? await environmentLog({ actor, datasetName: name, version: newest.version }) : null;

  return (
    <>
      <Breadcrumbs items={[{ label: name, href: datasetPath }, { label: "environment" }]} />
      <PageHeader
        title="Environment"
        description="Extra dependencies this dataset's runs mount, read-only, at /env: Python wheels, npm packages, Go modules, Maven jars, Debian packages and Rust crates, each pinned. Built from the registries the server reaches without running any package's code, except Rust crates' build scripts and macros, which cargo runs on the server; runs never reach the network. A new version is used from the moment it builds; a failed build leaves the version in use as it was."
      />
      <Card title="In use" className="mb-4">
        {current ? (
          <div className="space-y-2 text-sm" data-testid="environment-in-use">
            <p>
              <span className="font-medium">Version {current.version}</span>
              {current.sizeBytes !== null ? ` · ${formatSize(current.sizeBytes)}` : null}
              {current.createdBy ? ` · built by ${current.createdBy}` : null}
              {current.finishedAt ? ` · ${current.finishedAt.toISOString().slice(0, 16).replace("T", " ")} UTC` : null}
            </p>
            <EnvironmentLock lock={current.lock} />
          </div>
        ) : (
          <p className="text-sm text-slate-500" data-testid="environment-in-use">
            None yet: runs see the sandbox&apos;s own libraries only.
          </p>
        )}
      </Card>
      <Card title="Build a new version" className="mb-4">
        <EnvironmentForm dataset={name} spec={current?.spec ?? null} onBuild={buildEnvironmentAction} />
      </Card>
      {newest && newestLog ? (
        <Card
          title={
            newestLog.status === "BUILDING"
              ? `Building version ${newest.version}`
              : `Last build: version ${newest.version}`
          }
          className="mb-4"
        >
          <BuildLog
            key={newest.version}
            dataset={name}
            version={newest.version}
            initial={newestLog}
            inUse={page.inUse}
            readLog={environmentLogAction}
          />
        </Card>
      ) : null}
      <Card title="Versions" className="mb-4">
        {page.versions.length === 0 ? (
          <p className="text-sm text-slate-500">No version declared yet.</p>
        ) : (
          <EnvironmentVersions versions={page.versions} inUse={page.inUse} />
        )}
        <nav className="mt-3 flex justify-between text-sm" aria-label="Versions pages">
          {before ? (
            <Link href={path} className="text-indigo-700 hover:underline">
              ← Newest versions
            </Link>
          ) : (
            <span />
          )}
          {page.nextBefore ? (
            <Link
              href={`${path}?${new URLSearchParams({ before: String(page.nextBefore) })}`}
              className="text-indigo-700 hover:underline"
            >
              Older versions →
            </Link>
          ) : null}
        </nav>
      </Card>
    </>
  );
}
