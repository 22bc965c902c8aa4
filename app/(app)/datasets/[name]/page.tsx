import { controlJobAction } from "@/app/(app)/jobs/actions";
import { importGoldAnswersAction } from "@/app/(app)/datasets/actions";
import { GoldImport } from "@/components/gold/gold-import";
import Link from "next/link";

import { EvidenceButton } from "@/components/records/evidence-button";
import { HarnessForm } from "@/components/records/harness-form";
import { RecordFilterForm } from "@/components/records/record-filter-form";
import { RecordTable } from "@/components/records/record-table";
import { VerifyButton } from "@/components/records/verify-button";
import { Card, PageHeader } from "@/components/ui/primitives";
import { can, evidenceReasonScope } from "@/lib/server/auth/permissions";
import { EVIDENCE_REASONS } from "@/lib/evidence/suspicion";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { pathSegment } from "@/lib/server/http";
import { readDatasetPage } from "@/lib/server/records/dataset-page";
import { parseRecordQueryForPage } from "@/lib/validation/records";
import { orNotFound } from "@/lib/server/not-found";

import {
  cutReleaseAction,
  evidenceProgressAction,
  setDatasetHarnessAction,
  startEvidenceAction,
  startVerificationAction,
  verificationProgressAction,
} from "../actions";
import { CutReleaseForm } from "@/components/releases/cut-release-form";
import { ReleaseList } from "@/components/releases/release-list";
import { releaseNameSchema } from "@/lib/validation/releases";

export const metadata = { title: "Records" };

const PAGE_SIZE = 50;
const RELEASES_PAGE_SIZE = 10;

const FILTER_LABELS: Record<string, string> = {
  language: "Language",
  difficulty: "Difficulty",
  critic: "Critic",
  executable: "Executable",
  outcome: "Outcome",
  evidence: "Look at",
  weakBelow: "Weak below",
  q: "Search",
  cursor: "Page",
};

export default async function DatasetPage({
  params,
  searchParams,
}: {
  params: Promise<{ name: string }>;
  searchParams: Promise<Record<string, string>>;
}) {
  const name = pathSegment((await params).name);
  const rawQuery = await searchParams;
  const actor = await requirePageActor("records:read", `/datasets/${encodeURIComponent(name)}`);
  const { query, errors } = parseRecordQueryForPage({ ...rawQuery, limit: String(PAGE_SIZE) });
  // An evidence reason the actor may not find records by (evidenceReasonScope) is not applied.
  const forbiddenFilter = query.evidence && !can(actor, evidenceReasonScope(query.evidence)) ? "evidence" : null;
  if (forbiddenFilter) {
    errors.evidence = ["Only reviewers filter by the critic beside execution."];
    query.evidence = undefined;
  }
  const { limit, cursor, ...filters } = query;

  // Releases page by their own cursor (the last name shown), beside the records' one.
  const releaseCursor = releaseNameSchema.safeParse(rawQuery.releases);
  const { page, facets, goldCount, releases, verifying } = await orNotFound(
    readDatasetPage({
      actor,
      datasetName: name,
      filters,
      limit,
      cursor,
      releases: { cursor: releaseCursor.success ? releaseCursor.data : undefined, limit: RELEASES_PAGE_SIZE },
    }),
  );
  const datasetPath = `/datasets/${encodeURIComponent(name)}`;
  const filterParams = new URLSearchParams(
    Object.entries(filters).flatMap(([key, value]) => (value ? [[key, String(value)]] : [])),
  );
  const nextHref = page.nextCursor
    ? `?${new URLSearchParams([...filterParams, ["cursor", String(page.nextCursor)]])}`
    : null;

  return (
    <>
      <PageHeader
        title={name}
        description={`${page.total.toLocaleString("en")} ${page.total === 1 ? "record matches" : "records match"}${Object.values(filters).some(Boolean) ? " these filters" : ""}.`}
        actions={
          <div className="flex flex-wrap items-start justify-end gap-3">
            <Link
              href={`/datasets/${encodeURIComponent(name)}/solvers`}
              className="rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50"
            >
              Solver results
            </Link>
            {can(actor, "reports:export") ? (
              <Link
                href={`/datasets/${encodeURIComponent(name)}/report`}
                className="rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50"
              >
                Report across campaigns
              </Link>
            ) : null}
            {can(actor, "critics:read") ? (
              <Link
                href={`/datasets/${encodeURIComponent(name)}/critics`}
                className="rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50"
              >
                Which critic to trust
              </Link>
            ) : null}
            {verifying ? (
              <EvidenceButton
                dataset={name}
                latest={verifying.latestEvidence}
                startEvidence={startEvidenceAction}
                readProgress={evidenceProgressAction}
                controlBatch={controlJobAction}
              />
            ) : null}
            {verifying ? (
              <VerifyButton
                dataset={name}
                latest={verifying.latestVerification}
                startVerification={startVerificationAction}
                controlBatch={controlJobAction}
                readProgress={verificationProgressAction}
              />
            ) : null}
          </div>
        }
      />
      {Object.keys(errors).length > 0 ? (
        <div
          role="alert"
          className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200"
        >
          {Object.keys(errors).map((field) => (
            <p key={field}>
              {field === forbiddenFilter
                ? `${FILTER_LABELS[field]}: only reviewers find records where the critic and execution disagree, so this filter was not applied.`
                : `${FILTER_LABELS[field] ?? field}: “${String(rawQuery[field])}” is not a value this filter knows, so it was not applied. Choose one from the list.`}
            </p>
          ))}
        </div>
      ) : null}
      {verifying ? (
        <Card
          title="Harness"
          className="mb-4"
          actions={
            <Link
              href={`${datasetPath}/environment`}
              className="text-sm text-indigo-700 hover:underline"
              title="Extra dependencies this dataset's runs mount: Python, npm, Go, Maven and Debian packages, Rust crates"
            >
              Environment →
            </Link>
          }
        >
          <p className="mb-3 text-sm text-slate-600">
            How batch verification runs each language: AutoCodeBench&apos;s rules, or the profile of a benchmark whose
            own harness runs its tests differently (docs/sandbox.md, Harness profiles).
          </p>
          <HarnessForm dataset={name} harness={verifying.harness} onSave={setDatasetHarnessAction} />
        </Card>
      ) : null}
      {goldCount !== null ? (
        <Card title={`Gold answers (${goldCount.toLocaleString("en")})`} className="mb-4">
          {can(actor, "gold:write") ? (
            <GoldImport dataset={name} onImport={importGoldAnswersAction} />
          ) : (
            <p className="text-sm text-slate-500">
              Records with a known verdict, mixed into campaigns with a gold share.
            </p>
          )}
        </Card>
      ) : null}
      {releases ? (
        <ReleaseList datasetPath={datasetPath} releases={releases} isOlderPage={Boolean(rawQuery.releases)}>
          {can(actor, "releases:write") ? <CutReleaseForm dataset={name} onCut={cutReleaseAction} /> : null}
        </ReleaseList>
      ) : null}
      <RecordFilterForm
        dataset={name}
        filters={filters}
        facets={facets}
        evidenceReasons={EVIDENCE_REASONS.filter((reason) => can(actor, evidenceReasonScope(reason)))}
      />
      <RecordTable items={page.items} firstPageHref={cursor ? `?${filterParams}` : null} nextHref={nextHref} />
    </>
  );
}
