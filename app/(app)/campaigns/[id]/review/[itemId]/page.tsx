import { notFound } from "next/navigation";

import { recordTitle } from "@/components/campaigns/record-title";
import { CommentThread } from "@/components/comments/comment-thread";
import { EvidencePanel } from "@/components/evidence/evidence-panel";
import { CriticPanel } from "@/components/records/critic-panel";
import { ExecutableBadge } from "@/components/records/executable-badge";
import { AnnotationList } from "@/components/review/annotation-list";
import { DecisionForm } from "@/components/review/decision-form";
import { DecisionHistory } from "@/components/review/decision-history";
import {
  QUEUE_LABELS,
  type QueueKey,
  parseQueueQuery,
  type QueueQuery,
  queueSearch,
  toEvidenceQueueFilters,
  toQueueFilters,
} from "@/components/review/queue-query";
import { QueueStepper } from "@/components/review/queue-stepper";
import { Badge, Card } from "@/components/ui/primitives";
import { ShortcutSheet } from "@/components/workspace/shortcut-sheet";
import { SplitPane } from "@/components/workspace/split-pane";
import { languageName, monacoLanguageOf } from "@/lib/records/languages";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { getRecordEvidence } from "@/lib/server/evidence/evidence";
import { getCampaign } from "@/lib/server/campaigns/get-campaign";
import { listCategories } from "@/lib/server/campaigns/list-categories";
import { getQueueNeighbours, getReviewItem } from "@/lib/server/review/review";
import { getEvidenceQueueNeighbours } from "@/lib/server/review/evidence-queues";
import { EVIDENCE_REASON_LABELS } from "@/lib/evidence/suspicion";
import type { Actor } from "@/lib/server/auth/permissions";

import { adjudicateAction } from "../actions";
import { RecordContent } from "@/components/records/record-content";
import { SandboxCard } from "@/components/records/sandbox-card";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { listComments } from "@/lib/server/comments/comments";
import { orNotFound } from "@/lib/server/not-found";
import { sandboxUnavailableNote } from "@/lib/server/runs/run-record";
import { proposeRevisionAction, runRecordAction } from "@/app/(app)/records/actions";
import { RevisionEditor } from "@/components/revisions/revision-editor";
import { contentOfColumns } from "@/lib/revisions/fields";
import { can } from "@/lib/server/auth/permissions";
import { findRevisionBase } from "@/lib/server/revisions/queries";
import { addCommentAction, markCommentsReadAction } from "@/app/(app)/campaigns/[id]/comments/actions";

export const metadata = { title: "Adjudication" };

/** The item's place in the queue the reviewer came from: an evidence queue, or the label queues. */
async function neighboursOf({
  actor,
  campaignId,
  itemId,
  query,
}: {
  actor: Actor;
  campaignId: string;
  itemId: string;
  query: QueueQuery;
}) {
  const evidenceFilters = toEvidenceQueueFilters(query);
  if (!evidenceFilters) return getQueueNeighbours({ actor, campaignId, itemId, filters: toQueueFilters(query) });
  const neighbours = await getEvidenceQueueNeighbours({ actor, campaignId, itemId, filters: evidenceFilters });
  return { ...neighbours, reasons: {} };
}

export default async function AdjudicationPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; itemId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id, itemId } = await params;
  const actor = await requirePageActor("reviews:write", `/campaigns/${id}/review/${itemId}`);
  const query = parseQueueQuery(await searchParams);
  const [campaign, item, categories, queue, thread] = await Promise.all([
    orNotFound(getCampaign({ actor, campaignId: id })),
    orNotFound(getReviewItem({ actor, itemId })),
    listCategories({ actor, campaignId: id }),
    orNotFound(neighboursOf({ actor, campaignId: id, itemId, query })),
    orNotFound(listComments({ actor, itemId })),
  ]);
  const unavailableNote = await sandboxUnavailableNote(item.record.language);
  if (item.campaign.id !== id) notFound();
  const { record } = item;
  const [evidence, revisionBase] = await Promise.all([
    getRecordEvidence({ actor, recordId: record.id }),
    can(actor, "revisions:write") ? findRevisionBase({ actor, recordId: record.id }) : Promise.resolve(null),
  ]);
  const monacoLanguage = monacoLanguageOf(record.language);
  const categoryLabels = Object.fromEntries(categories.map((category) => [category.key, category.label]));

  // Neighbours in the queue; once decided the item has left it, so "next" is the queue's top.
  const search = queueSearch(query);
  const hrefOf = (target: string) => `/campaigns/${id}/review/${target}${search}`;
  const reasons = Object.entries(queue.reasons) as [QueueKey, string][];

  const left = (
    <>
      <RecordContent record={record} monacoLanguage={monacoLanguage} />
    </>
  );

  const right = (
    <>
      {/* The evidence (labels, notes, their runs, the critic) is read before deciding, so it comes first. */}
      <Card title={`Annotations (${item.annotations.length})`}>
        <AnnotationList annotations={item.annotations} categoryLabels={categoryLabels} isBlind={campaign.blind} />
      </Card>
      <EvidencePanel
        executableValid={record.executableValid}
        verificationOutcome={record.verificationOutcome}
        flaky={evidence.flaky}
        evidence={evidence}
        critic={record.critic}
      />
      <Card title="Critic">
        <CriticPanel critic={record.critic} />
      </Card>
      <CommentThread thread={thread} itemId={itemId} addComment={addCommentAction} markRead={markCommentsReadAction} />
      <Card title="Decision">
        <div className="space-y-4">
          <DecisionHistory decision={item.adjudication} categoryLabels={categoryLabels} viewerId={actor.id} />
          <DecisionForm
            key={itemId}
            itemId={itemId}
            categories={categories}
            current={
              item.adjudication
                ? {
                    revision: item.adjudication.revision,
                    valid: item.adjudication.valid,
                    categories: item.adjudication.categories,
                    reason: item.adjudication.reason,
                  }
                : null
            }
            onDecide={adjudicateAction}
          />
        </div>
      </Card>
      <SandboxCard actor={actor} recordId={record.id} unavailableNote={unavailableNote} onRun={runRecordAction} />
      {/* A flaw the decision names can be repaired here too; a second person checks the repair blind. */}
      {revisionBase ? (
        <Card title="Repair this record">
          <RevisionEditor
            key={itemId}
            recordId={record.id}
            revision={revisionBase.current}
            waiting={revisionBase.waiting}
            language={monacoLanguage}
            current={contentOfColumns(record)}
            categories={categories.map(({ key, label }) => ({ key, label }))}
            onPropose={proposeRevisionAction}
            onRun={runRecordAction}
          />
        </Card>
      ) : null}
    </>
  );

  return (
    <>
      <Breadcrumbs
        items={[
          { label: "Campaigns", href: "/campaigns" },
          { label: campaign.name, href: `/campaigns/${id}` },
          { label: "Review", href: `/campaigns/${id}/review${search}` },
        ]}
      />
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <h1 className="text-xl font-semibold" title={recordTitle(record.question)}>
          Record {record.id}
        </h1>
        <Badge tone="indigo">{languageName(record.language)}</Badge>
        {record.difficulty ? <Badge>{record.difficulty}</Badge> : null}
        <ExecutableBadge value={record.executableValid} outcome={record.verificationOutcome} flaky={evidence.flaky} />
        {campaign.blind ? <Badge tone="amber">blind</Badge> : null}
        {query.look && queue.position !== null ? (
          <Badge tone="amber">{EVIDENCE_REASON_LABELS[query.look]}</Badge>
        ) : null}
        {reasons.map(([queueName, reason]) => (
          <Badge key={queueName} tone="amber" title={reason}>
            {QUEUE_LABELS[queueName]}
          </Badge>
        ))}
        <div className="ml-auto flex items-center gap-2">
          <ShortcutSheet page="adjudication" />
          <QueueStepper
            queueHref={`/campaigns/${id}/review${search}`}
            previousHref={queue.previousItemId ? hrefOf(queue.previousItemId) : null}
            nextHref={queue.nextItemId ? hrefOf(queue.nextItemId) : null}
            position={queue.position}
            total={queue.total}
          />
        </div>
      </div>
      <p className="mb-3 text-xs text-slate-500">
        Keys: <kbd>V</kbd>/<kbd>I</kbd> verdict · <kbd>1</kbd>–<kbd>9</kbd> categories · <kbd>C</kbd> finds any ·{" "}
        <kbd>N</kbd> reason · <kbd>Enter</kbd> decide (<kbd>Ctrl+Enter</kbd> in the reason) · <kbd>J</kbd>/<kbd>K</kbd>{" "}
        next/previous · <kbd>R</kbd> run the tests · <kbd>?</kbd> all keys
      </p>
      <SplitPane left={left} right={right} />
    </>
  );
}
