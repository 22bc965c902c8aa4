import Link from "next/link";
import { notFound } from "next/navigation";

import { recordTitle } from "@/components/campaigns/record-title";
import { CriticPanel } from "@/components/records/critic-panel";
import { ExecutableBadge } from "@/components/records/executable-badge";
import { Badge, Card } from "@/components/ui/primitives";
import { LabelForm } from "@/components/workspace/label-form";
import { LeaseStatus } from "@/components/workspace/lease-status";
import { RevisionHistory } from "@/components/workspace/revision-history";
import { ScratchRunner } from "@/components/workspace/scratch-runner";
import { ShortcutSheet } from "@/components/workspace/shortcut-sheet";
import { SkipControl } from "@/components/workspace/skip-control";
import { SplitPane } from "@/components/workspace/split-pane";
import { LANGUAGE_LABELS, type Language, MONACO_LANGUAGE } from "@/lib/records/languages";
import { can } from "@/lib/server/auth/permissions";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { getWorkItem } from "@/lib/server/db/queue";
import { orNotFound } from "@/lib/server/not-found";
import { RecordContent } from "@/components/records/record-content";
import { SandboxCard } from "@/components/records/sandbox-card";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";

export const metadata = { title: "Workspace" };

export default async function WorkItemPage({ params }: { params: Promise<{ id: string; itemId: string }> }) {
  const { id, itemId } = await params;
  const actor = await requirePageActor("labels:write", `/campaigns/${id}/items/${itemId}`);
  const work = await orNotFound(getWorkItem({ actor, itemId }));
  if (work.campaign.id !== id) notFound();
  const { record, campaign, assignment, annotation } = work;
  const monacoLanguage = MONACO_LANGUAGE[record.language as Language] ?? "plaintext";
  const canRun = can(actor, "sandbox:run");
  const isLeaseActive = assignment?.status === "ACTIVE" && annotation === null;
  const categoryLabels = Object.fromEntries(campaign.categories.map((category) => [category.key, category.label]));

  const left = (
    <>
      <RecordContent record={record} monacoLanguage={monacoLanguage} />
    </>
  );

  const right = (
    <>
      <Card title={annotation ? `Your label (revision ${annotation.revision})` : "Your label"}>
        <LabelForm
          key={itemId}
          itemId={itemId}
          campaignId={campaign.id}
          blind={campaign.blind}
          categories={campaign.categories}
          loaded={annotation ? { valid: annotation.valid, categories: annotation.categories, note: annotation.note, testLine: annotation.testLine, needsReview: annotation.needsReview, revision: annotation.revision } : null}
        />
        {isLeaseActive ? (
          <div className="mt-4 border-t border-slate-200 pt-4">
            <SkipControl key={itemId} itemId={itemId} campaignId={campaign.id} />
          </div>
        ) : annotation ? (
          <Link href={`/campaigns/${campaign.id}/next`} prefetch={false} className="mt-4 inline-block text-sm text-indigo-700 hover:underline">
            Next item →
          </Link>
        ) : null}
      </Card>
      <SandboxCard actor={actor} recordId={record.id} language={record.language} />
      <Card title="Edit & run">
        <ScratchRunner key={itemId} recordId={record.id} language={monacoLanguage} solution={record.canonicalSolution} test={record.fullTestFunc} canRun={canRun} />
      </Card>
      <Card title="Critic">
        {work.isCriticVisible ? (
          <CriticPanel critic={record.critic} />
        ) : (
          <p className="text-sm text-slate-500" data-testid="critic-hidden">
            The critic is hidden until you submit a first label.
          </p>
        )}
      </Card>
      {annotation ? (
        <Card title="Your revisions">
          <RevisionHistory revisions={annotation.revisions} categoryLabels={categoryLabels} preReveal={campaign.blind && annotation.preRevealValid !== null ? { valid: annotation.preRevealValid, categories: annotation.preRevealCategories } : null} />
        </Card>
      ) : null}
    </>
  );

  return (
    <>
      <Breadcrumbs items={[{ label: "Campaigns", href: "/campaigns" }, { label: campaign.name, href: `/campaigns/${campaign.id}` }]} />
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <h1 className="text-xl font-semibold" title={recordTitle(record.question)}>
          Record {record.id}
        </h1>
        <Badge tone="indigo">{LANGUAGE_LABELS[record.language as Language] ?? record.language}</Badge>
        {record.difficulty ? <Badge>{record.difficulty}</Badge> : null}
        <ExecutableBadge value={record.executableValid} outcome={record.verificationOutcome} />
        {campaign.blind ? <Badge tone="amber">blind</Badge> : null}
        <span className="font-mono text-xs text-slate-400" title={`Record ${record.id}, line ${record.line}`}>
          line {record.line} · {record.key.slice(0, 10)}
        </span>
        <div className="ml-auto flex items-center gap-3">
          <LeaseStatus key={itemId} itemId={itemId} expiresAt={assignment?.leaseExpiresAt.toISOString() ?? null} isActive={isLeaseActive} />
          <ShortcutSheet />
        </div>
      </div>
      <SplitPane left={left} right={right} />
    </>
  );
}
