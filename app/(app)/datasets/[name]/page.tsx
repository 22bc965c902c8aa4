import { importGoldAnswersAction } from "@/app/(app)/datasets/actions";
import { GoldImport } from "@/components/gold/gold-import";
import { InlineMarkdown } from "@/components/records/question-markdown";
import Link from "next/link";

import { ExecutableBadge } from "@/components/records/executable-badge";
import { EvidenceButton } from "@/components/records/evidence-button";
import { HarnessForm } from "@/components/records/harness-form";
import { VerifyButton } from "@/components/records/verify-button";
import { Badge, Button, Card, Input, PageHeader, Select } from "@/components/ui/primitives";
import { can, evidenceReasonScope } from "@/lib/server/auth/permissions";
import { languageName } from "@/lib/records/languages";
import { OUTCOME_FILTER_LABELS, OUTCOME_FILTER_NAMES } from "@/lib/records/verification";
import { EVIDENCE_REASONS, type EvidenceReason, WEAK_TESTS_THRESHOLD } from "@/lib/evidence/suspicion";
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
import { releaseNameSchema } from "@/lib/validation/releases";

export const metadata = { title: "Records" };

const PAGE_SIZE = 50;
const RELEASES_PAGE_SIZE = 10;

/** The evidence filter's options, saying what each finds. */
const EVIDENCE_REASON_OPTIONS: Record<EvidenceReason, string> = {
  weak_tests: "Weak tests (mutation score below the threshold)",
  flaky: "Flaky (outcomes differ between runs)",
  unsolved: "Solved by no model",
  critic_vs_execution: "Critic and execution disagree",
};

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
              />
            ) : null}
            {verifying ? (
              <VerifyButton
                dataset={name}
                latest={verifying.latestVerification}
                startVerification={startVerificationAction}
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
        <Card title="Releases" className="mb-4">
          <div className="space-y-3">
            {can(actor, "releases:write") ? <CutReleaseForm dataset={name} onCut={cutReleaseAction} /> : null}
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
                    <tr key={release.name}>
                      <td className="py-1 pr-3 font-mono">{release.name}</td>
                      <td className="py-1 pr-3 text-slate-600">
                        {release.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC
                      </td>
                      <td className="py-1 pr-3 tabular-nums">{release.records.toLocaleString("en")}</td>
                      <td className="py-1 pr-3 tabular-nums">{release.revised.toLocaleString("en")}</td>
                      <td className="py-1 pr-3 tabular-nums">{release.excluded.toLocaleString("en")}</td>
                      <td className="py-1">
                        <a
                          href={`/api/v1${datasetPath}/releases/${encodeURIComponent(release.name)}/archive`}
                          download
                          className="text-indigo-700 hover:underline"
                        >
                          {release.name}.tar.gz
                        </a>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <nav className="flex justify-between text-sm" aria-label="Releases pages">
              {rawQuery.releases ? (
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
      ) : null}
      <Card className="mb-4">
        <form className="flex flex-wrap items-end gap-3" role="search">
          <label className="text-sm">
            <span className="mb-1 block text-slate-600">Language</span>
            <Select name="language" defaultValue={filters.language ?? ""} aria-label="Language">
              <option value="">All</option>
              {facets.languages.map(({ language, count }) => (
                <option key={language} value={language}>
                  {languageName(language)} ({count})
                </option>
              ))}
            </Select>
          </label>
          <label className="text-sm">
            <span className="mb-1 block text-slate-600">Difficulty</span>
            <Select name="difficulty" defaultValue={filters.difficulty ?? ""} aria-label="Difficulty">
              <option value="">All</option>
              {facets.difficulties.map((difficulty) => (
                <option key={difficulty} value={difficulty}>
                  {difficulty}
                </option>
              ))}
            </Select>
          </label>
          <label className="text-sm">
            <span className="mb-1 block text-slate-600">Critic</span>
            <Select name="critic" defaultValue={filters.critic ?? ""} aria-label="Critic verdict">
              <option value="">All</option>
              <option value="pass">Passed</option>
              <option value="fail">Failed</option>
              <option value="none">No verdict</option>
            </Select>
          </label>
          <label className="text-sm">
            <span className="mb-1 block text-slate-600">Executable</span>
            <Select name="executable" defaultValue={filters.executable ?? ""} aria-label="Executable-valid">
              <option value="">All</option>
              <option value="valid">Passes its tests</option>
              <option value="failed">Fails its tests</option>
              <option value="unknown">Not verified</option>
              <option value="flaky">Flaky (outcomes differ between runs)</option>
            </Select>
          </label>
          <label className="text-sm">
            <span className="mb-1 block text-slate-600">Outcome</span>
            <Select name="outcome" defaultValue={filters.outcome ?? ""} aria-label="Verification outcome">
              <option value="">All</option>
              {OUTCOME_FILTER_NAMES.map((outcome) => (
                <option key={outcome} value={outcome}>
                  {OUTCOME_FILTER_LABELS[outcome]}
                </option>
              ))}
            </Select>
          </label>
          <label className="max-w-full min-w-0 text-sm">
            <span className="mb-1 block text-slate-600">Look at</span>
            {/* Its longest option is wider than a phone: the select may shrink to the page. */}
            <Select name="evidence" defaultValue={filters.evidence ?? ""} aria-label="Look at" className="max-w-full">
              <option value="">All</option>
              {EVIDENCE_REASONS.filter((reason) => can(actor, evidenceReasonScope(reason))).map((reason) => (
                <option key={reason} value={reason}>
                  {EVIDENCE_REASON_OPTIONS[reason]}
                </option>
              ))}
            </Select>
          </label>
          <label className="text-sm">
            <span className="mb-1 block text-slate-600">Weak below</span>
            <Input
              name="weakBelow"
              type="number"
              min={0}
              max={1}
              step={0.05}
              defaultValue={filters.weakBelow ?? WEAK_TESTS_THRESHOLD}
              aria-label="Weak tests below mutation score"
              className="w-24"
            />
          </label>
          <label className="min-w-64 flex-1 text-sm">
            <span className="mb-1 block text-slate-600">Search in questions</span>
            <Input
              name="q"
              type="search"
              defaultValue={filters.q ?? ""}
              placeholder="e.g. binary search"
              aria-label="Search in questions"
            />
          </label>
          <Button type="submit">Filter</Button>
          <Link
            href={`/datasets/${encodeURIComponent(name)}`}
            className="py-1.5 text-sm text-slate-600 hover:underline"
          >
            Clear
          </Link>
        </form>
      </Card>
      <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
        <table className="min-w-full text-sm">
          <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className="px-3 py-2">Line</th>
              <th className="px-3 py-2">Language</th>
              <th className="px-3 py-2">Difficulty</th>
              <th className="px-3 py-2">Question</th>
              <th className="px-3 py-2">Critic</th>
              <th className="px-3 py-2">Executable</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {page.items.map((item) => (
              <tr key={item.id} className="hover:bg-indigo-50/40">
                <td className="px-3 py-2 tabular-nums text-slate-500">{item.line}</td>
                <td className="px-3 py-2">{languageName(item.language)}</td>
                <td className="px-3 py-2 text-slate-600">{item.difficulty ?? "—"}</td>
                <td className="max-w-xl truncate px-3 py-2">
                  <Link href={`/records/${item.id}`} className="text-indigo-700 hover:underline">
                    {item.title ? <InlineMarkdown source={item.title} /> : "(untitled)"}
                  </Link>
                </td>
                <td className="px-3 py-2">
                  {item.isCriticHidden ? (
                    <Badge>hidden</Badge>
                  ) : !item.hasCritic ? (
                    <Badge>none</Badge>
                  ) : item.criticPass === true ? (
                    <Badge tone="green">pass</Badge>
                  ) : item.criticPass === false ? (
                    <Badge tone="red">fail</Badge>
                  ) : (
                    <Badge tone="amber">unclear</Badge>
                  )}
                </td>
                <td className="px-3 py-2">
                  <ExecutableBadge
                    value={item.executableValid}
                    outcome={item.verificationOutcome}
                    flaky={item.flaky}
                    isHidden={item.isExecutionHidden}
                  />
                </td>
              </tr>
            ))}
            {page.items.length === 0 ? (
              <tr>
                <td colSpan={6} className="px-3 py-6 text-center text-slate-500">
                  No records match.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <nav className="mt-3 flex justify-between text-sm" aria-label="Pagination">
        {cursor ? (
          <Link href={`?${filterParams}`} className="text-indigo-700 hover:underline">
            ← First page
          </Link>
        ) : (
          <span />
        )}
        {nextHref ? (
          <Link href={nextHref} className="text-indigo-700 hover:underline">
            Next page →
          </Link>
        ) : null}
      </nav>
    </>
  );
}
