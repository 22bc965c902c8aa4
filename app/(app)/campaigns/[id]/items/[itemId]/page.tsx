import Link from "next/link";
import { notFound } from "next/navigation";

import { recordTitle } from "@/components/campaigns/record-title";
import { EvidencePanel } from "@/components/evidence/evidence-panel";
import { ExecutableBadge } from "@/components/records/executable-badge";
import { QuestionMarkdown } from "@/components/records/question-markdown";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { Badge } from "@/components/ui/primitives";
import { CodePanel } from "@/components/workspace/code-panel";
import { CriticSummary } from "@/components/workspace/critic-summary";
import { GuidelinesPanel, GuidelinesToggle } from "@/components/workspace/guidelines-panel";
import { LabelForm } from "@/components/workspace/label-form";
import { LatestRun } from "@/components/workspace/latest-run";
import { sandboxUnavailableNote } from "@/lib/server/runs/run-record";
import { listComments } from "@/lib/server/comments/comments";
import { LeaseStatus } from "@/components/workspace/lease-status";
import { RevisionHistory } from "@/components/workspace/revision-history";
import { ScratchRunner } from "@/components/workspace/scratch-runner";
import { ShortcutSheet } from "@/components/workspace/shortcut-sheet";
import { SkipControl } from "@/components/workspace/skip-control";
import { SplitPane } from "@/components/workspace/split-pane";
import { WorkspaceProvider } from "@/components/workspace/workspace-context";
import { canSkip, workItemState } from "@/lib/annotation/work-item-state";
import { languageName, monacoLanguageOf } from "@/lib/records/languages";
import { firstFailingLine } from "@/lib/runs/failure-line";
import { can } from "@/lib/server/auth/permissions";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { getRecordEvidence } from "@/lib/server/evidence/evidence";
import { listLatestCanonicalRuns } from "@/lib/server/runs/latest-runs";
import { getWorkItem } from "@/lib/server/labelling/queue";
import { orNotFound } from "@/lib/server/not-found";
import { CommentThread } from "@/components/comments/comment-thread";
import { addCommentAction, markCommentsReadAction } from "@/app/(app)/campaigns/[id]/comments/actions";
import { proposeRevisionAction, runRecordAction } from "@/app/(app)/records/actions";
import { RevisionEditor } from "@/components/revisions/revision-editor";
import { contentOfColumns } from "@/lib/revisions/fields";
import { findRevisionBase } from "@/lib/server/revisions/queries";

import { renewLeaseAction, skipItemAction, submitLabelAction } from "./actions";

export const metadata = { title: "Workspace" };

const section = "rounded-lg bg-white p-3 shadow-sm ring-1 ring-slate-200";

/**
 * The annotator's workspace. On a laptop screen everything that decides a label is on screen at
 * once: statement, code and evidence on the left (each scrolling inside its own box), the label,
 * the critic and the latest run on the right. On a phone the panes stack.
 */
export default async function WorkItemPage({ params }: { params: Promise<{ id: string; itemId: string }> }) {
  const { id, itemId } = await params;
  const actor = await requirePageActor("labels:write", `/campaigns/${id}/items/${itemId}`);
  const work = await orNotFound(getWorkItem({ actor, itemId }));
  if (work.campaign.id !== id) notFound();
  const { record, campaign, assignment, annotation } = work;
  const monacoLanguage = monacoLanguageOf(record.language);
  const canRun = can(actor, "sandbox:run");
  const [unavailableNote, latestRuns, thread, evidence, revisionBase] = await Promise.all([
    sandboxUnavailableNote(record.language),
    listLatestCanonicalRuns({ actor, recordId: record.id }),
    listComments({ actor, itemId }),
    getRecordEvidence({ actor, recordId: record.id }),
    can(actor, "revisions:write") ? findRevisionBase({ actor, recordId: record.id }) : Promise.resolve(null),
  ]);
  // Rendered per request: the lease's state is read against the clock now.
  const state = workItemState({ assignment, hasLabel: annotation !== null, now: new Date() });
  const categoryLabels = Object.fromEntries(campaign.categories.map((category) => [category.key, category.label]));
  const code = { solution: record.canonicalSolution, demo: record.demoTestFunc, full: record.fullTestFunc };

  const left = (
    <>
      <section aria-label="Statement" className={`${section} shrink-0 overflow-auto lg:max-h-[38%]`}>
        <QuestionMarkdown source={record.question} />
      </section>
      <div className={`${section} flex min-h-0 flex-1 flex-col p-2`}>
        <CodePanel code={code} language={monacoLanguage} />
      </div>
      {/* Under the code it is about, so a 1440×900 screen shows it beside the label, the critic and
          the latest run; long evidence scrolls inside it rather than taking the code's room. */}
      <EvidencePanel
        executableValid={record.executableValid}
        verificationOutcome={record.verificationOutcome}
        flaky={evidence.flaky}
        evidence={evidence}
        critic={record.critic}
        isExecutionHidden={!work.isExecutionVisible}
        isEvidenceHidden={!work.isEvidenceVisible}
        isCriticHidden={!work.isCriticVisible}
        isCompact
      />
    </>
  );

  const right = (
    <>
      <GuidelinesPanel isEmpty={campaign.guidelines.trim() === ""}>
        <QuestionMarkdown source={campaign.guidelines} />
      </GuidelinesPanel>
      <section aria-label="Your label" className={section}>
        <h2 className="mb-1.5 text-sm font-semibold text-slate-800">
          {annotation ? `Your label (revision ${annotation.revision})` : "Your label"}
        </h2>
        {/* A skipped item is no longer the actor's to label (the server refuses it too). */}
        {state === "skipped" ? (
          <p className="text-sm text-slate-600">You skipped this item, so it is no longer yours to label.</p>
        ) : (
          <LabelForm
            key={itemId}
            itemId={itemId}
            requireInvalidNote={campaign.requireInvalidNote}
            categories={campaign.categories}
            isCriticVisible={work.isCriticVisible}
            onSubmitLabel={submitLabelAction}
            loaded={
              annotation
                ? {
                    valid: annotation.valid,
                    categories: annotation.categories,
                    note: annotation.note,
                    testLine: annotation.testLine,
                    needsReview: annotation.needsReview,
                    revision: annotation.revision,
                  }
                : null
            }
          />
        )}
      </section>
      <CriticSummary
        itemId={itemId}
        critic={record.critic}
        isVisible={work.isCriticVisible}
        hiddenBy={work.criticHiddenBy}
      />
      <LatestRun
        key={itemId}
        recordId={record.id}
        code={code}
        initialRuns={latestRuns}
        canRun={canRun}
        unavailableNote={unavailableNote}
        onRun={runRecordAction}
      />
      <CommentThread thread={thread} itemId={itemId} addComment={addCommentAction} markRead={markCommentsReadAction} />
      <section aria-label="Edit and run" className={section}>
        <ScratchRunner
          key={itemId}
          recordId={record.id}
          language={monacoLanguage}
          solution={record.canonicalSolution}
          test={record.fullTestFunc}
          canRun={canRun}
          onRun={runRecordAction}
        />
      </section>
      {/* The editor shows the record's own content only, which this page shows already: nothing the
          campaign hides (critic, others' labels, the history of repairs and their checks). */}
      {revisionBase ? (
        <section aria-label="Repair this record" className={section}>
          <h2 className="mb-1.5 text-sm font-semibold text-slate-800">Repair this record</h2>
          <RevisionEditor
            key={itemId}
            recordId={record.id}
            revision={revisionBase.current}
            waiting={revisionBase.waiting}
            isExecutionHidden={!work.isExecutionVisible}
            language={monacoLanguage}
            current={contentOfColumns(record)}
            categories={campaign.categories.map(({ key, label }) => ({ key, label }))}
            onPropose={proposeRevisionAction}
            onRun={runRecordAction}
          />
        </section>
      ) : null}
      {annotation ? (
        <section aria-label="Your revisions" className={section}>
          <h2 className="mb-1.5 text-sm font-semibold text-slate-800">Your revisions</h2>
          <RevisionHistory
            revisions={annotation.revisions}
            categoryLabels={categoryLabels}
            preReveal={
              annotation.preRevealValid !== null
                ? { valid: annotation.preRevealValid, categories: annotation.preRevealCategories }
                : null
            }
          />
        </section>
      ) : null}
    </>
  );

  return (
    // A stored failing run (batch verification, or anyone's last run) is pointed at from the start.
    <WorkspaceProvider initialHighlight={firstFailingLine(latestRuns, code)}>
      <div className="-mt-3 mb-2 flex flex-wrap items-center gap-2 text-sm">
        <Breadcrumbs
          className=""
          items={[
            { label: "Campaigns", href: "/campaigns" },
            { label: campaign.name, href: `/campaigns/${campaign.id}` },
          ]}
        />
        <span className="text-slate-400">/</span>
        <h1 className="text-base font-semibold" title={recordTitle(record.question)}>
          Record {record.id}
        </h1>
        <Badge tone="indigo">{languageName(record.language)}</Badge>
        {record.difficulty ? <Badge>{record.difficulty}</Badge> : null}
        <ExecutableBadge
          value={record.executableValid}
          outcome={record.verificationOutcome}
          flaky={evidence.flaky}
          isHidden={!work.isExecutionVisible}
        />
        {campaign.blind ? <Badge tone="amber">blind</Badge> : null}
        <span className="font-mono text-xs text-slate-400" title={`Record ${record.id}, line ${record.line}`}>
          line {record.line} · {record.key.slice(0, 10)}
        </span>
        <div className="ml-auto flex flex-wrap items-center gap-2">
          {state !== "skipped" ? (
            <LeaseStatus
              key={itemId}
              itemId={itemId}
              expiresAt={assignment?.leaseExpiresAt.toISOString() ?? null}
              state={state}
              onRenew={renewLeaseAction}
            />
          ) : null}
          {canSkip(state) ? (
            <SkipControl key={itemId} itemId={itemId} onSkip={skipItemAction} />
          ) : annotation ? (
            <Link href={`/campaigns/${campaign.id}/next`} prefetch={false} className="text-indigo-700 hover:underline">
              Next item →
            </Link>
          ) : null}
          <GuidelinesToggle />
          <ShortcutSheet />
        </div>
      </div>
      <SplitPane left={left} right={right} fill />
    </WorkspaceProvider>
  );
}
