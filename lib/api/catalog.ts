// Every /api/v1 operation in one table: its scope, what it takes and returns. The OpenAPI document
// is built from it, and a test checks it against the route files so neither can drift.
import { z } from "zod";

import type { Scope } from "@/lib/server/auth/permissions";
import { RECORDS_DRAWN_IN_REQUEST } from "@/lib/campaigns/item-draw";
import { ITEMS_DELETED_IN_REQUEST } from "@/lib/campaigns/job-limits";
import { RECORDS_RELEASED_IN_REQUEST } from "@/lib/releases/release-build";
import { countOf } from "@/lib/format/count";
import { invitationLinkSchema } from "@/lib/validation/auth";
import {
  annotationResponseSchema,
  campaignListResponseSchema,
  campaignProgressResponseSchema,
  campaignResponseSchema,
  campaignStatusResponseSchema,
  claimResponseSchema,
  claimWithOthersResponseSchema,
  createdCampaignResponseSchema,
  campaignDeletionResponseSchema,
  extendCampaignResponseSchema,
  leaseResponseSchema,
} from "@/lib/validation/campaigns";
import { commentThreadResponseSchema } from "@/lib/validation/comments";
import {
  environmentBuildResponseSchema,
  environmentListResponseSchema,
  environmentLogResponseSchema,
} from "@/lib/validation/environments";
import { evidenceProgressResponseSchema, evidenceStartResponseSchema } from "@/lib/validation/evidence";
import { goldAnswerListResponseSchema, goldImportResponseSchema } from "@/lib/validation/gold";
import { jobActionResponseSchema, jobPageResponseSchema } from "@/lib/validation/jobs";
import {
  datasetListResponseSchema,
  importJobResponseSchema,
  importPreviewResponseSchema,
  harnessResponseSchema,
  importSummaryResponseSchema,
  recordPageResponseSchema,
  recordResponseSchema,
  verificationProgressResponseSchema,
  verificationStartResponseSchema,
} from "@/lib/validation/records";
import {
  campaignReportResponseSchema,
  datasetReportResponseSchema,
  exportLineResponseSchema,
} from "@/lib/validation/reports";
import {
  adjudicationResponseSchema,
  agreementResponseSchema,
  evidenceQueueResponseSchema,
  reviewQueueResponseSchema,
} from "@/lib/validation/review";
import { runsResponseSchema } from "@/lib/validation/runs";
import {
  recordSolversResponseSchema,
  solutionImportResponseSchema,
  solutionRunResponseSchema,
  solverResultsResponseSchema,
} from "@/lib/validation/solutions";
import {
  cutReleaseResponseSchema,
  releaseDiffResponseSchema,
  releaseListResponseSchema,
  releaseResponseSchema,
} from "@/lib/validation/releases";
import {
  proposedRevisionResponseSchema,
  repairQueueResponseSchema,
  revisionCheckResponseSchema,
  revisionListResponseSchema,
  revisionToCheckResponseSchema,
} from "@/lib/validation/revisions";

export type Operation = {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** OpenAPI path under /api/v1, with {params}. */
  path: string;
  scope: Scope;
  summary: string;
  query?: Record<string, string>;
  body?: string;
  responses: Record<number, string>;
  /**
   * The success answer's JSON shape; the OpenAPI document carries it and route tests parse every
   * 2xx answer with it. null: every success is a 204 without a body. For a `stream`, one line's shape.
   */
  response: z.ZodType | null;
  /** The answer is streamed JSON Lines (or CSV, described in `responses`); `response` is one line. */
  stream?: "jsonl";
  /** The answer is a file of this media type, not JSON; `response` describes its bytes as a string. */
  file?: "application/gzip";
};

/** A release's .tar.gz: bytes, which the OpenAPI document names as a binary string. */
const RELEASE_ARCHIVE = z.string().meta({
  description: "The release folder as a gzip-compressed tar archive.",
  contentMediaType: "application/gzip",
  format: "binary",
});

const errors = {
  401: "No valid token or session.",
  403: "The role lacks the scope, or a session-cookie write came from another origin.",
  404: "Not found, or not visible to the caller.",
  422: "Invalid input, with field errors.",
  503: "The database is unreachable; nothing was changed, try again.",
};

const OPERATIONS = [
  {
    method: "GET",
    path: "/datasets",
    scope: "records:read",
    summary:
      "Datasets the caller sees (annotators: those with a campaign in their languages) with record counts per language.",
    responses: { 200: "[{id, name, records, byLanguage}]", 401: errors[401] },
    response: datasetListResponseSchema,
  },
  {
    method: "GET",
    path: "/datasets/{name}/records",
    scope: "records:read",
    summary:
      "A page of a dataset's records. A critic blind mode hides from the caller is null (isCriticHidden) and matches no critic filter.",
    query: {
      language: "language id",
      difficulty: "easy|medium|hard",
      critic: "pass|fail|none",
      executable: "valid|failed|unknown|flaky",
      outcome: "passed|compilation_error|time_limit|wrong_answer|runtime_error|unavailable|not_run",
      evidence:
        "weak_tests (mutation score below weakBelow) | flaky | unsolved (solutions ran, none passed) | critic_vs_execution (critic pass but the canonical solution fails, or critic fail but it passes; not flaky; reviewers and admins only, 403 otherwise)",
      weakBelow: "0–1, the weak-tests threshold (0.5)",
      q: "text in the question",
      limit: "1–500 (50)",
      cursor: "nextCursor of the previous page",
    },
    responses: {
      200: "{records: [{id, key, line, dataset, language, difficulty, question, canonicalSolution, demoTestFunc, fullTestFunc, extra, critic, isCriticHidden, executableValid, verificationOutcome, evidence}], nextCursor}",
      ...errors,
    },
    response: recordPageResponseSchema,
  },
  {
    method: "POST",
    path: "/datasets/{name}/records",
    scope: "imports:write",
    summary:
      "Import records (JSONL or a JSON array, optionally gzipped) into a dataset; all or nothing unless skipInvalid.",
    query: {
      skipInvalid: "1 to import the valid records",
      fileName: "shown in the import log",
      mapping:
        "another benchmark's format: a shipped mapping (humaneval, mbpp, humaneval-x) or a mapping's JSON (docs/features.md: Importing other benchmarks)",
    },
    body: "application/x-ndjson",
    responses: {
      201: "{ok, jobId, dataset, imported, duplicates, skipped, errorCount, errors: [{line, message}], byLanguage}",
      413: "Larger than VERITY_IMPORT_MAX_MB; nothing imported.",
      422: "Nothing imported: the summary lists every bad line.",
      401: errors[401],
      403: errors[403],
      503: errors[503],
      507: "The server's disk is full; nothing imported.",
    },
    response: importSummaryResponseSchema,
  },
  {
    method: "POST",
    path: "/datasets/{name}/records/preview",
    scope: "imports:write",
    summary:
      "The first records of a file as an import would read them (through the mapping, if any), with each bad line's reason; nothing is written.",
    query: {
      mapping: "as for the import",
      limit: "1–50 (5): how many leading records to read",
    },
    body: "application/x-ndjson",
    responses: {
      200: "{records: [{line, key, language, difficulty, question, canonicalSolution, demoTestFunc, fullTestFunc, extra}], errors: [{line, message}], hasMore}",
      413: "Larger than VERITY_IMPORT_MAX_MB.",
      422: "A bad mapping: fieldErrors.mapping names each bad path.",
      401: errors[401],
      403: errors[403],
    },
    response: importPreviewResponseSchema,
  },
  {
    method: "PATCH",
    path: "/datasets/{name}/harness",
    scope: "datasets:verify",
    summary:
      "The harness profile each language of the dataset runs with (java-main, javascript-exit-code, javascript-silent, typescript-exit-code, go-testify, cpp-openssl; docs/sandbox.md); a language left out runs AutoCodeBench's rules. Replaces the whole choice.",
    body: "application/json: {harness: {language: profile}}",
    responses: {
      ...errors,
      200: "{dataset, harness}",
      422: "An unknown profile, or a profile for another language (fieldErrors name the language).",
    },
    response: harnessResponseSchema,
  },
  {
    method: "GET",
    path: "/datasets/{name}/environments",
    scope: "datasets:verify",
    summary:
      "The dataset's environment versions (extra dependencies its runs mount at /env), newest first, 20 a page: each version's status (BUILDING, READY, FAILED), what was declared (spec) and resolved (lock), its error, size, who built it and when, and which one is in use.",
    query: { before: "nextBefore of the previous page: versions older than it" },
    responses: {
      200: "{dataset, inUse, versions: [{version, status, spec, lock, error, sizeBytes, createdBy, createdAt, finishedAt, isInUse}], nextBefore}",
      ...errors,
    },
    response: environmentListResponseSchema,
  },
  {
    method: "POST",
    path: "/datasets/{name}/environments",
    scope: "datasets:verify",
    summary:
      "Declares a new environment version, every dependency pinned (python name==version, npm name@version, go module@vX.Y.Z, maven group:artifact:version, debian package=version), and builds it in the background from the registries the server reaches (no package code runs). It is used from the moment it is READY; a FAILED build leaves the previous version in use.",
    body: "application/json: {spec: {python?, npm?, go?, maven?, debian?, rust?}} (lists of entries)",
    responses: {
      202: '{dataset, version, status: "BUILDING"}: follow it at …/environments/{version}/log',
      ...errors,
      409: "Another version of the dataset's environment is still building.",
      422: "An entry that is not pinned, an unknown kind, or no entry at all (fieldErrors name each entry under its kind).",
    },
    response: environmentBuildResponseSchema,
  },
  {
    method: "GET",
    path: "/datasets/{name}/environments/{version}/log",
    scope: "datasets:verify",
    summary:
      "A version's build log so far (the package managers' output, written every 2 s while it builds; the last 200 KB kept), its status and, once it failed, why.",
    responses: { 200: "{status, log, error}", ...errors },
    response: environmentLogResponseSchema,
  },
  {
    method: "GET",
    path: "/datasets/{name}/solutions",
    scope: "records:read",
    summary:
      "Solver results of a dataset: per model, pass@1 (solutions that passed both tests ÷ those that ran, with a Wilson 95% interval) overall and per language, and the newest solution run's progress.",
    responses: {
      200: "{dataset, passAtOne: [{model, attempted, solved, passAtOne, interval, unavailable, pending, byLanguage: {language: {attempted, solved, passAtOne, interval, unavailable, pending}}}], latestRun}",
      ...errors,
    },
    response: solverResultsResponseSchema,
  },
  {
    method: "POST",
    path: "/datasets/{name}/solutions",
    scope: "imports:write",
    summary:
      'Import model outputs, all or nothing, and run each against its record\'s demo and full tests. A line is {"key", "model", "code" | "output"} or an AutoCodeBench result line (the record\'s own fields plus the raw reply in `output`, the model named by ?model=). A raw reply\'s code is its first fenced block, as AutoCodeBench\'s evaluation takes it. A record\'s solution from a model replaces the earlier one.',
    query: { model: "the model of lines that name none", fileName: "shown with the run" },
    body: "application/x-ndjson (optionally gzipped)",
    responses: {
      201: "{dataset, batchId, imported, withoutCode, toRun, models}",
      413: "Larger than VERITY_IMPORT_MAX_MB; nothing imported.",
      ...errors,
      422: "Nothing imported: fieldErrors.file lists each bad line (line N: why).",
    },
    response: solutionImportResponseSchema,
  },
  {
    method: "GET",
    path: "/datasets/{name}/solutions/records",
    scope: "records:read",
    summary:
      "A page of the dataset's records that have solutions, by record id, with the models that solve each (solvedBy: k) and those whose solution ran (triedBy: n). unsolved=1: tried by some model, solved by none.",
    query: {
      unsolved: "1 for records no model solves",
      cursor: "nextCursor of the previous page",
      limit: "1–500 (50)",
    },
    responses: { 200: "{rows: [{recordId, line, language, question, solvedBy, triedBy}], nextCursor}", ...errors },
    response: recordSolversResponseSchema,
  },
  {
    method: "GET",
    path: "/jobs",
    scope: "records:read",
    summary:
      "Every kind of long work the caller may read, newest first: imports (imports:write), verification, evidence and solution runs (annotators: of the datasets they see), critic runs (critics:read). Each with its progress, rate and ETA, who started it, its result, its page and the actions the caller may take on it now.",
    query: {
      kind: "import|verification|evidence|solutions|critic",
      status: "running|paused|cancelled|succeeded|failed",
      limit: "1–200 (50)",
      cursor: "nextCursor of the previous page",
    },
    responses: {
      200: "{jobs: [{id, kind, status, done, total, unit, startedBy, createdAt, startedAt, finishedAt, dataset, scope, result, stopReason, href, actions, perMinute, etaSeconds}], nextCursor}",
      ...errors,
      422: "An unknown kind or status, a limit out of range, or a cursor this list did not hand out (fieldErrors name it).",
    },
    response: jobPageResponseSchema,
  },
  {
    method: "POST",
    path: "/jobs/{kind}/{id}/status",
    scope: "records:read",
    summary:
      "Pause, resume or cancel a job through its kind's own operation, with that operation's scope and audit: critic runs (critics:admin). Kinds without the action answer 422.",
    body: '{action: "pause"|"resume"|"cancel"}',
    responses: {
      200: "{kind, id, status}",
      ...errors,
      403: "The role lacks the scope of the kind's operation (critic runs: critics:admin), or a cross-site session write.",
      409: "Not allowed from the job's current status.",
      422: "An unknown kind or action, or an action the kind does not support.",
    },
    response: jobActionResponseSchema,
  },
  {
    method: "GET",
    path: "/solution-runs/{id}",
    scope: "records:read",
    summary: "A solution run's progress (the solutions of one import running against their tests).",
    responses: {
      200: "{batchId, dataset, status, models, total, done, passed, failed, unavailable, errored, stopReason, createdAt}",
      ...errors,
    },
    response: solutionRunResponseSchema,
  },
  {
    method: "GET",
    path: "/datasets/{name}/gold",
    scope: "gold:read",
    summary:
      "A dataset's gold answers (records' known verdicts). Admins and reviewers only: annotators get 403, so gold items stay indistinguishable to them.",
    responses: { 200: "[{recordId, key, language, valid, categories, note, updatedAt}]", ...errors },
    response: goldAnswerListResponseSchema,
  },
  {
    method: "POST",
    path: "/datasets/{name}/gold",
    scope: "gold:write",
    summary:
      "Import gold answers, all or nothing: JSONL lines or CSV rows (header: key or id, verdict valid|invalid, categories separated by ';', note). Existing answers of the named records are replaced.",
    body: "application/x-ndjson",
    responses: {
      201: "{dataset, imported}",
      413: "Larger than 16 MB; nothing imported.",
      ...errors,
      422: "Nothing imported: fieldErrors.file lists each bad line (line N: why).",
    },
    response: goldImportResponseSchema,
  },
  {
    method: "POST",
    path: "/datasets/{name}/verifications",
    scope: "datasets:verify",
    summary:
      "Start (or resume) batch verification of a dataset; with repeat K (2–20) each record's tests also run K times alone and flaky records are marked.",
    body: "{language?, force?, repeat?}",
    responses: { 202: "{batchId, total, resumed}", ...errors },
    response: verificationStartResponseSchema,
  },
  {
    method: "POST",
    path: "/datasets/{name}/evidence",
    scope: "datasets:verify",
    summary:
      "Start (or resume) evidence collection for a dataset: mutation analysis with `mutants` per record (0–50, default 8; 0: none) and the flakiness check with `repeat` runs of each test (0: none, else 2–20). Follow it at GET /evidence/{batchId}.",
    body: "{language?, mutants?, repeat?}",
    responses: { 202: "{batchId, total, resumed, tasks}", ...errors },
    response: evidenceStartResponseSchema,
  },
  {
    method: "GET",
    path: "/datasets/{name}/releases",
    scope: "releases:read",
    summary: "A dataset's releases, newest first, keyset-paged.",
    query: { cursor: "nextCursor of the previous page", limit: "1–200 (50)" },
    responses: {
      200: "{releases: [{name, createdAt, records, excluded, revised, status (BUILDING | READY | FAILED), failureReason}], nextCursor}",
      ...errors,
    },
    response: releaseListResponseSchema,
  },
  {
    method: "POST",
    path: "/datasets/{name}/releases",
    scope: "releases:write",
    summary:
      "Cut a release: which record revisions are in, which records are out and why, the validity table and the method disclosure are stored and never change. A name the dataset has is refused.",
    body: "{name, requireExecutable?}",
    responses: {
      201: "{name, status: READY, records, excluded, revised}: built inside the request",
      202: `a dataset of more than ${countOf(RECORDS_RELEASED_IN_REQUEST, "record")}: {name, status: BUILDING}; a job builds it, and GET /datasets/{name}/releases lists it with status READY (or FAILED and failureReason) when done; until then it cannot be read, downloaded or diffed (409)`,
      ...errors,
      409: "The dataset has a release of that name.",
    },
    response: cutReleaseResponseSchema,
  },
  {
    method: "GET",
    path: "/datasets/{name}/releases/{release}",
    scope: "releases:read",
    summary:
      "A release as stored: counts (per language too), the selection rule, the validity table and the method disclosure.",
    responses: {
      200: "{name, dataset, createdAt, records, excluded, revised, byLanguage, rule, validity, disclosure}",
      ...errors,
    },
    response: releaseResponseSchema,
  },
  {
    method: "GET",
    path: "/datasets/{name}/releases/{release}/archive",
    scope: "releases:read",
    summary:
      "The release folder (data.jsonl, excluded.jsonl, README.md dataset card, manifest.json) as a .tar.gz; two downloads are the same bytes.",
    responses: { 200: "application/gzip", ...errors },
    file: "application/gzip",
    response: RELEASE_ARCHIVE,
  },
  {
    method: "GET",
    path: "/datasets/{name}/releases/{release}/diff",
    scope: "releases:read",
    summary: "Records added, removed and revised from release `from` to this one.",
    query: { from: "the earlier release's name" },
    responses: {
      200: "{a, b, added: [{key, line, language, revision}], removed, revised: [{…, fromRevision}]}",
      ...errors,
    },
    response: releaseDiffResponseSchema,
  },
  {
    method: "GET",
    path: "/imports/{id}",
    scope: "imports:write",
    summary: "An import's progress and outcome; message says why it failed.",
    responses: {
      200: "{id, datasetName, fileName, source, status, linesRead, bytesRead, bytesTotal, imported, duplicates, skipped, errors, message, createdAt, finishedAt}",
      ...errors,
    },
    response: importJobResponseSchema,
  },
  {
    method: "GET",
    path: "/evidence/{id}",
    scope: "records:read",
    summary: "An evidence batch's progress: record tasks done of total, errored, and why it stopped.",
    responses: {
      200: "{batchId, dataset, language, mutants, repeat, status, total, done, errored, stopReason, isPaused, isCancelled, queuedAhead}",
      ...errors,
    },
    response: evidenceProgressResponseSchema,
  },
  {
    method: "GET",
    path: "/verifications/{id}",
    scope: "records:read",
    summary: "A verification batch's progress.",
    responses: {
      200: "{batchId, dataset, language, status, total, done, executableValid, failed, unavailable, inconclusive, errored, repeat, flaky, stopReason, isPaused, isCancelled, queuedAhead}",
      ...errors,
    },
    response: verificationProgressResponseSchema,
  },
  {
    method: "GET",
    path: "/records/{id}",
    scope: "records:read",
    summary:
      "A record with its critic (null while blind mode hides it) and its evidence: mutation (test strength), flaky, solvers — each null until collected, and while the campaign's visibility hides it from the caller.",
    responses: {
      200: "{id, key, line, dataset, language, difficulty, question, canonicalSolution, demoTestFunc, fullTestFunc, extra, critic, isCriticHidden, executableValid, verificationOutcome, evidence: {mutation: {score, viable, killed, stillborn, generated, byTest: {demo, full}, survivors, notApplicable, analysedAt} | null, flaky: boolean | null, solvers: {solved, total, byModel} | null}}",
      ...errors,
    },
    response: recordResponseSchema,
  },
  {
    method: "POST",
    path: "/records/{id}/flaky",
    scope: "datasets:verify",
    summary:
      "Check a record for flaky tests: its canonical solution runs against both tests `repeat` times (default 3), each run alone on the sandbox; outcomes that differ make it flaky.",
    body: "{repeat?: 2–20}",
    responses: { 201: '{flaky: boolean | null, outcomes: ["DEMO/FULL outcome", …]}', ...errors },
    response: z.object({ flaky: z.boolean().nullable(), outcomes: z.array(z.string()) }),
  },
  {
    method: "GET",
    path: "/records/{id}/revisions",
    scope: "records:read",
    summary:
      "A record's revisions, newest first, as unified diffs against the revision each was edited from; revision 1 is the import. A repair waiting for its blind check shows its reason, categories and author to its author only.",
    responses: {
      200: "{current, areJudgementsHidden (before your first label on an item of a blind campaign: others' authors, reasons, categories and checks null, their rejected repairs left out), revisions: [{id, number, status: ORIGINAL|PROPOSED|ACCEPTED|REJECTED, baseNumber, changedFields, diffs: [{field, diff}], author, reason, categories, isRationaleHidden, evidence: {demoOutcome, fullOutcome, executableValid}, check, createdAt}]}",
      ...errors,
    },
    response: revisionListResponseSchema,
  },
  {
    method: "POST",
    path: "/records/{id}/revisions",
    scope: "revisions:write",
    summary:
      "Propose a revision of a record (annotators: in their languages): the changed fields, a reason and the error categories it fixes. Its evidence (the solution on both tests) is recomputed before the answer; it enters the repairs queue for a blind second check.",
    body: "{question?, canonical_solution?, demo_test_func?, full_test_func?, reason, categories: [key], baseRevision?}",
    responses: {
      201: "{id, recordId, number, changedFields, evidence: {demoOutcome, fullOutcome, backend, toolchain}}",
      409: "Another repair of the record waits for its check, or the record changed since baseRevision.",
      ...errors,
    },
    response: proposedRevisionResponseSchema,
  },
  {
    method: "GET",
    path: "/repairs",
    scope: "revisions:check",
    summary:
      "The repairs queue: proposed revisions the caller may check (never their own), oldest first, keyset-paged. No author, reason or category: the check is blind.",
    query: { cursor: "nextCursor of the previous page", limit: "1–200 (50)" },
    responses: {
      200: "{repairs: [{id, recordId, number, language, dataset, title, createdAt}], nextCursor}",
      ...errors,
    },
    response: repairQueueResponseSchema,
  },
  {
    method: "GET",
    path: "/revisions/{id}",
    scope: "revisions:check",
    summary:
      "A proposed revision as its checker sees it: the revised record's content and the evidence recomputed on it, nothing of its author, reason or earlier labels. Its author gets 403.",
    responses: {
      200: "{id, recordId, number, language, dataset, content: {question, canonical_solution, demo_test_func, full_test_func}, evidence}",
      ...errors,
    },
    response: revisionToCheckResponseSchema,
  },
  {
    method: "POST",
    path: "/revisions/{id}/check",
    scope: "revisions:check",
    summary:
      "The blind second check: a label on the revised record by someone other than its author. Valid accepts the revision (the record's content becomes it); invalid rejects it (kept in the history).",
    body: "{valid, categories: [key], note?}",
    responses: {
      200: "{id, recordId, number, status: ACCEPTED|REJECTED}",
      ...errors,
      403: "The caller proposed this revision, or lacks the scope.",
      409: "Already checked.",
    },
    response: revisionCheckResponseSchema,
  },
  {
    method: "POST",
    path: "/records/{id}/runs",
    scope: "sandbox:run",
    summary:
      "Run a record in the sandbox (rate-limited, at most a few runs at once per user; a client that disconnects cancels its run); stored with who ran it, outputs cut to their first and last 32 KiB.",
    body: '{kind: "demo"|"full"|"both"|"scratch", solution?, test?}',
    responses: {
      201: "{runs: [{id, kind, createdAt, outcome, exitCode, signal, stdout, stderr, compileOutput, timeMs, compileMs?, runMs?, memoryKb, limit, stdoutTruncated, stderrTruncated, program, backend, language, toolchain?}]}",
      429: "Too many runs, too many of yours at once, or the sandbox queue is full.",
      502: "The sandbox could not run it (unavailable language, backend down).",
      ...errors,
    },
    response: runsResponseSchema,
  },
  {
    method: "GET",
    path: "/campaigns",
    scope: "records:read",
    summary: "Campaigns visible to the caller.",
    responses: { 200: "[campaign]", 401: errors[401] },
    response: campaignListResponseSchema,
  },
  {
    method: "POST",
    path: "/campaigns",
    scope: "campaigns:admin",
    summary: "Create a campaign over a stratified, seeded sample.",
    body: "{dataset, name, languages?, perLanguage?, seed? (whole number or text), sampling? (random | suspicion: the most suspicious records first by what the campaign shows before the first label, left out of validity rates; refused with visibility nothing or execution), overlap?, agreementFraction?, blind?, finalRule?, leaseMinutes?, categories?, guidelines?, requireInvalidNote?, goldShare? (0–0.5)}",
    responses: {
      201: "the campaign with id and itemCount (itemDraw null: its items were drawn in the request)",
      202: `a sample drawn from more than ${countOf(RECORDS_DRAWN_IN_REQUEST, "record")} (those of its languages, whatever perLanguage): the campaign, with no items yet and itemDraw {status: RUNNING, total, stopReason}; a job draws the items (the same a 201 would have held) and GET /campaigns/{id} shows itemDraw.status SUCCEEDED and the itemCount when done; claims answer 409 until then`,
      409: "A campaign with that name exists.",
      ...errors,
    },
    response: createdCampaignResponseSchema,
  },
  {
    method: "POST",
    path: "/campaigns/{id}/items",
    scope: "campaigns:admin",
    summary:
      "Add records to a running campaign: the sample grows to perLanguage per language (null: all) under the campaign's seed, so it holds what a campaign created with that size would; optionally more languages. Labels so far stay; the sample never shrinks.",
    body: "{perLanguage: number|null, languages?}",
    responses: {
      200: "{status: SUCCEEDED, added, perLanguage, before: {lang: items}, after: {lang: items}}",
      202: `a sample ranking more than ${countOf(RECORDS_DRAWN_IN_REQUEST, "record")} (those of its languages): {status: RUNNING, perLanguage, total}; a job adds the items (the same a 200 would have), the campaign unchanged until then; the campaign's page and GET /jobs?kind=extension say when it SUCCEEDED or why it FAILED`,
      409: "The campaign is archived, its items are still being drawn, or records are being added to it already.",
      ...errors,
    },
    response: extendCampaignResponseSchema,
  },
  {
    method: "PATCH",
    path: "/campaigns/{id}",
    scope: "campaigns:admin",
    summary:
      "Rename a campaign, change its overlap while nothing is labelled, or change its gold share (0–0.5; later claims only).",
    body: "{name?, overlap?, goldShare?}",
    responses: { 200: "the campaign", 409: "The name is taken, or items are labelled already (overlap).", ...errors },
    response: campaignResponseSchema,
  },
  {
    method: "DELETE",
    path: "/campaigns/{id}",
    scope: "campaigns:admin",
    summary:
      "Delete a campaign and its items while nothing is labelled. Deleting a campaign whose removal failed tries again.",
    responses: {
      204: "Deleted.",
      202: `a campaign of more than ${countOf(ITEMS_DELETED_IN_REQUEST, "item")}: {status: DELETING, items}; it is gone from every list and claim already, and a job removes it (GET /jobs?kind=deletion follows it)`,
      409: "The campaign has labels: close or archive it.",
      ...errors,
    },
    response: campaignDeletionResponseSchema,
  },
  {
    method: "POST",
    path: "/campaigns/{id}/status",
    scope: "campaigns:admin",
    summary: "Pause (no new claims; active leases end), resume, close, reopen, archive or unarchive a campaign.",
    body: '{action: "pause"|"resume"|"close"|"reopen"|"archive"|"unarchive"}',
    responses: { 200: "{status, endedLeases}", 409: "Not allowed from the campaign's current status.", ...errors },
    response: campaignStatusResponseSchema,
  },
  {
    method: "POST",
    path: "/campaigns/{id}/claim",
    scope: "labels:write",
    summary:
      "Claim the caller's next item with a lease. Claims that name no client share one lease (a second claim answers the same item); a script running several clients under one token names each, and each holds a lease of its own.",
    body: "optional {client?: 1–64 of A–Z a–z 0–9 . _ -}",
    responses: {
      200: "{item: {id, campaignId}, record (with verificationOutcome, without executableValid), leaseExpiresAt, categories}; or, when the only items left for the caller are leased by other annotators, {item: null, withOthers, nextLeaseEndsAt, message}: claim again later, as they come back if a lease runs out",
      204: "Nothing left for the caller, now or later.",
      409: "The campaign is paused, closed or archived, or the caller already holds 16 running leases in it (label or skip one first).",
      ...errors,
    },
    response: z.union([claimResponseSchema, claimWithOthersResponseSchema]),
  },
  {
    method: "GET",
    path: "/campaigns/{id}/progress",
    scope: "records:read",
    summary: "Campaign progress overall, per language and for the caller.",
    responses: {
      200: "{items, annotationsWanted, annotationsDone, itemsComplete, activeLeases, mine, byLanguage}",
      ...errors,
    },
    response: campaignProgressResponseSchema,
  },
  {
    method: "GET",
    path: "/campaigns/{id}/disagreements",
    scope: "reviews:write",
    summary: "Review queues, 50 items a page (most reasons first); pass nextCursor as cursor for the next page.",
    query: {
      queue: "annotators|critic|execution|flagged",
      language: "language id",
      annotator: "user id",
      category: "category key",
      cursor: "nextCursor of the previous page",
    },
    responses: {
      200: "{items: [{itemId, recordId, title, language, reasons, votes: [{annotator, valid, categories}]}], counts, nextCursor: string | null}",
      ...errors,
    },
    response: reviewQueueResponseSchema,
  },
  {
    method: "GET",
    path: "/campaigns/{id}/evidence-queue",
    scope: "reviews:write",
    summary:
      "An evidence queue: the campaign's items (labelled or not, gold left out) whose record the evidence points at, in campaign order, 50 a page; counts of all four queues. critic_vs_execution reads the critic: records whose critic or evidence is hidden from the caller are left out.",
    query: {
      reason:
        "weak_tests (mutation score below weakBelow) | flaky | unsolved (solutions ran, none passed) | critic_vs_execution (critic pass but the canonical solution fails, or critic fail but it passes; not flaky)",
      weakBelow: "0–1, the weak-tests threshold (0.5)",
      language: "language id",
      cursor: "nextCursor of the previous page (a position)",
    },
    responses: {
      200: "{counts: {weak_tests, flaky, unsolved, critic_vs_execution}, items: [{itemId, recordId, language, position, title, labels, finalValid, why}], nextCursor: number | null}",
      ...errors,
    },
    response: evidenceQueueResponseSchema,
  },
  {
    method: "GET",
    path: "/campaigns/{id}/agreement",
    scope: "reports:export",
    summary: "Agreement figures; undefined metrics are null.",
    responses: {
      200: "{overall, byLanguage, humanVsCritic: {items, kappa, confusion}, humanVsCriticByLanguage, humanVsExecution: {items, notRun, kappa, confusion}, humanVsExecutionByLanguage, criticRules, annotators: [{userId, email, name, items, medianActiveMs, meanActiveMs, fastDecisions, itemsPerDay, agreementWithFinal, pairwiseKappa, gold: {n, correct, byLanguage}}], blindReveal: null | {overall, byLanguage, byAnnotator: [{userId, email, name, language, labels, flipped, flipRate, flippedTowardSignal, withSignal, agreementBefore, agreementAfter, kappaBefore, kappaAfter}]} (against the critic), executionReveal: null | the same against execution (campaigns that showed nothing before the first label), countedAt (counted again first whenever a label or signal changed), signals: [{signal (critic|execution|flaky|weak-tests|unsolved|rule:NAME), n, flagged, truePositives, falsePositives, falseNegatives, trueNegatives, precision, precisionInterval, recall, recallInterval, kappa, byLanguage}]}",
      ...errors,
    },
    response: agreementResponseSchema,
  },
  {
    method: "GET",
    path: "/campaigns/{id}/report",
    scope: "reports:export",
    summary: "The validity report per language with Wilson 95% intervals; rates are fractions.",
    query: { format: "json|csv|md" },
    responses: {
      200: "{campaign: {id, name, dataset, finalRule, overlap}, sampling: {mode: random|suspicion, note} (a suspicion-ordered campaign: counts, every rate null), byLanguage: {lang: {sampled, labelled, resolved, valid, validity, ci, criticPass, criticN, executableValid, executableN, executableUnavailable, humanCriticKappa, alpha, topCategories}}, pooled, macro, byDifficulty, byCategory, categoriesByLanguage} (format=json; csv and md: the table as text)",
      ...errors,
    },
    response: campaignReportResponseSchema,
  },
  {
    method: "GET",
    path: "/datasets/{name}/report",
    scope: "reports:export",
    summary:
      "The validity report across a dataset's campaigns: a record labelled in several counts once, with its strongest resolved label (adjudication, then more agreeing annotators, then the latest campaign); the rule is in `rule`.",
    query: { format: "json|csv|md" },
    responses: {
      200: "{campaign, sampling: {mode, note}, byLanguage, pooled, macro, byDifficulty, byCategory, categoriesByLanguage, campaigns: [{id, name, finalRule}] (the randomly sampled campaigns counted), rule, leftOut: {campaigns: [{id, name}], items, labelledItems} (suspicion-ordered campaigns, never counted)} (format=json; csv and md: the table as text, md with the rule under it)",
      ...errors,
    },
    response: datasetReportResponseSchema,
  },
  {
    method: "GET",
    path: "/campaigns/{id}/export",
    scope: "reports:export",
    summary:
      "Stream labels one row per item (final label, rule, how resolved, adjudication reason), one row per annotation (annotator, verdict, categories, note, pre-reveal label, active seconds, created/revised at), or the verified subset (final-Valid records in the input format). CSV writes true/false and leaves a cell empty only for an unknown value; the file is named after the campaign and the date.",
    query: { what: "labels|annotations|verified", format: "jsonl|csv (labels and annotations)" },
    responses: { 200: "application/x-ndjson (one JSON object a line) or text/csv (the same columns)", ...errors },
    response: exportLineResponseSchema,
    stream: "jsonl",
  },
  {
    method: "POST",
    path: "/items/{id}/annotations",
    scope: "labels:write",
    summary: "Submit or revise the caller's label on an item the queue handed them (claim first).",
    body: "{valid, categories, note?, testLine?, needsReview?, activeMs?, baseRevision?}",
    responses: {
      201: "Created: {id, revision, valid, categories, note, testLine, needsReview, created}.",
      200: "Revised, or unchanged (a repeated submit, whose answer adds activeMs): the same shape.",
      409: "Stale revision, the caller skipped the item, or the lease expired and the slot is gone.",
      ...errors,
    },
    response: annotationResponseSchema,
  },
  {
    method: "POST",
    path: "/items/{id}/skip",
    scope: "labels:write",
    summary: "Skip the caller's current item with a reason.",
    body: "{reason}",
    responses: { 204: "Skipped.", ...errors },
    response: null,
  },
  {
    method: "POST",
    path: "/items/{id}/lease",
    scope: "labels:write",
    summary: "Extend the caller's lease (404 for an item the caller never held).",
    responses: { 200: "{leaseExpiresAt}", 409: "The lease has ended.", ...errors },
    response: leaseResponseSchema,
  },
  {
    method: "GET",
    path: "/items/{id}/comments",
    scope: "comments:write",
    summary:
      "An item's comment thread, oldest first, for whoever may see the item; an annotator sees other annotators' comments once they have labelled it.",
    responses: { 200: "The thread.", ...errors },
    response: commentThreadResponseSchema,
  },
  {
    method: "POST",
    path: "/items/{id}/comments",
    scope: "comments:write",
    summary: "Add a comment to an item's thread.",
    body: "{body}",
    responses: { 201: "{id}", ...errors },
    response: z.object({ id: z.string() }),
  },
  {
    method: "POST",
    path: "/invitations",
    scope: "users:admin",
    summary:
      "Invite a person with a role and languages; the answer holds the one-time link to send them (valid 7 days, shown once).",
    body: "{email, role: ANNOTATOR|REVIEWER|ADMIN, languages: [language id]}",
    responses: { 201: "The invitation and its link.", 409: "The address already has an account.", ...errors },
    response: invitationLinkSchema,
  },
  {
    method: "POST",
    path: "/invitations/{id}/link",
    scope: "users:admin",
    summary: "A fresh link for an unused invitation, valid 7 more days; the old link stops working.",
    responses: { 200: "The invitation and its new link.", ...errors },
    response: invitationLinkSchema,
  },
  {
    method: "DELETE",
    path: "/invitations/{id}",
    scope: "users:admin",
    summary: "Revoke an unused invitation; its link stops working.",
    responses: { 204: "Revoked.", ...errors },
    response: null,
  },
  {
    method: "POST",
    path: "/items/{id}/adjudication",
    scope: "reviews:write",
    summary: "Record or revise the final decision on an item.",
    body: "{valid, categories, reason, baseRevision?}",
    responses: {
      201: "First decision: {id, revision, valid, categories, reason}.",
      200: "Revised: the same shape.",
      409: "Another reviewer decided first, or the decision changed.",
      ...errors,
    },
    response: adjudicationResponseSchema,
  },
] as const satisfies readonly Operation[];

export const API_OPERATIONS: readonly Operation[] = OPERATIONS;

type CatalogOperation = (typeof OPERATIONS)[number];
type NameOf<O> = O extends { method: infer M extends string; path: infer P extends string } ? `${M} ${P}` : never;
type Named<K extends string> = K extends `${infer M} ${infer P}`
  ? Extract<CatalogOperation, { method: M; path: P }>
  : never;

/** An operation, "METHOD /path", whose success answer is one JSON body: not only 204s, not a file or a stream. */
export type JsonOperation = NameOf<
  Exclude<Extract<CatalogOperation, { response: z.ZodType }>, { file: string } | { stream: string }>
>;

/**
 * What JSON writes for a value: a Date becomes its ISO text, so a route may hand a Date where the
 * schema asks for a string (a timestamp); where it takes any JSON (a record's `extra`), any value.
 */
type Sendable<T> = [z.core.util.JSONType] extends [T]
  ? unknown
  : T extends string
    ? T | Date
    : T extends readonly (infer U)[]
      ? readonly Sendable<U>[]
      : T extends object
        ? { [K in keyof T]: Sendable<T[K]> }
        : T;

/** The body a route may answer for an operation: its catalog schema's input, as a route hands it to Response.json. */
export type AnswerOf<K extends JsonOperation> = Sendable<z.input<Extract<Named<K>["response"], z.ZodType>>>;

const TEXT_FORMATS: Record<string, string> = { csv: "text/csv", md: "text/markdown" };

/**
 * A success answer's media types: JSON (or JSON Lines for a stream, the schema being one line's),
 * and the text formats a `format` query offers, described in prose only.
 */
function successContent(operation: Operation, response: z.ZodType): Record<string, { schema: object }> {
  const schema = z.toJSONSchema(response);
  const formats = (operation.query?.format ?? "").split(/[|\s(]/);
  const text = Object.entries(TEXT_FORMATS).filter(([format]) => formats.includes(format));
  if (operation.file) return { [operation.file]: { schema } };
  return {
    ...(operation.stream === "jsonl"
      ? { "application/x-ndjson": { schema: { ...schema, description: "Each line of the stream." } } }
      : { "application/json": { schema } }),
    ...Object.fromEntries(text.map(([, type]) => [type, { schema: { type: "string" } }])),
  };
}

/** The OpenAPI 3.1 document of /api/v1, built from the catalog. */
export function openApiDocument(serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of API_OPERATIONS) {
    const pathParams = [...operation.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      name,
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const queryParams = Object.entries(operation.query ?? {}).map(([name, description]) => ({
      name,
      in: "query",
      required: false,
      description,
      schema: { type: "string" },
    }));
    (paths[operation.path] ??= {})[operation.method.toLowerCase()] = {
      summary: operation.summary,
      description: `Scope: \`${operation.scope}\`.`,
      security: [{ bearer: [] }],
      parameters: [...pathParams, ...queryParams],
      ...(operation.body
        ? {
            requestBody: {
              required: true,
              content: {
                [operation.body === "application/x-ndjson" ? "application/x-ndjson" : "application/json"]: {
                  schema: { description: operation.body },
                },
              },
            },
          }
        : {}),
      responses: Object.fromEntries(
        Object.entries(operation.responses).map(([status, description]) => [
          status,
          operation.response && status.startsWith("2") && status !== "204"
            ? { description, content: successContent(operation, operation.response) }
            : { description },
        ]),
      ),
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Verity API",
      version: "1",
      description:
        "Import, annotate, review and report on generated code-benchmark records. Authenticate with a personal API token: `Authorization: Bearer <token>`. Errors: `{error: {code, message, fieldErrors?}}`.",
    },
    servers: [{ url: `${serverUrl}/api/v1` }],
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    paths,
  };
}
