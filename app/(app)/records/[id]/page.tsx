import Link from "next/link";
import { notFound } from "next/navigation";

import { clearGoldAnswerAction, setGoldAnswerAction } from "@/app/(app)/records/actions";
import { GoldAnswerForm } from "@/components/gold/gold-answer-form";
import { GoldAnswerView } from "@/components/gold/gold-answer-view";
import { CodeViewer } from "@/components/records/code-viewer";
import { EvidencePanel } from "@/components/evidence/evidence-panel";
import { FlakyCheckButton } from "@/components/evidence/flaky-check-button";
import { CriticPanel } from "@/components/records/critic-panel";
import { ExecutableBadge } from "@/components/records/executable-badge";
import { SandboxCard } from "@/components/records/sandbox-card";
import { VerificationCard } from "@/components/records/verification-card";
import { QuestionMarkdown } from "@/components/records/question-markdown";
import { Badge, Card } from "@/components/ui/primitives";
import { languageName, monacoLanguageOf } from "@/lib/records/languages";
import { can } from "@/lib/server/auth/permissions";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { getGoldAnswer } from "@/lib/server/gold/gold";
import { getRecord } from "@/lib/server/records/records";
import { getRecordVerification } from "@/lib/server/runs/runs";
import { orNotFound } from "@/lib/server/not-found";
import { sandboxUnavailableNote } from "@/lib/server/runs/run-record";
import { recordIdSchema } from "@/lib/validation/records";
import { checkFlakinessAction, proposeRevisionAction, runRecordAction } from "@/app/(app)/records/actions";
import { RevisionEditor } from "@/components/revisions/revision-editor";
import { RevisionHistory } from "@/components/revisions/revision-history";
import { DEFAULT_CATEGORIES } from "@/lib/annotation/categories";
import { contentOfColumns } from "@/lib/revisions/fields";
import { findRevisionBase, listRecordRevisions } from "@/lib/server/revisions/queries";

export const metadata = { title: "Record" };

export default async function RecordPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePageActor("records:read", `/records/${id}`);
  const recordId = recordIdSchema.safeParse(id);
  if (!recordId.success) notFound();
  const record = await orNotFound(getRecord({ actor, id: recordId.data }));
  // Gold answers are read only for those allowed to (never annotators: nothing may mark a gold record to them).
  const canReadGold = can(actor, "gold:read");
  const [verification, gold, unavailableNote, revisions, revisionBase] = await Promise.all([
    getRecordVerification({ actor, recordId: recordId.data }),
    canReadGold ? getGoldAnswer({ actor, recordId: recordId.data }) : Promise.resolve(null),
    sandboxUnavailableNote(record.language),
    listRecordRevisions({ actor, recordId: recordId.data }),
    // Null where the actor may not revise (annotators repair records of their languages only).
    can(actor, "revisions:write") ? findRevisionBase({ actor, recordId: recordId.data }) : Promise.resolve(null),
  ]);
  const monacoLanguage = monacoLanguageOf(record.language);
  const extraKeys = Object.keys(record.extra);

  return (
    <>
      <nav className="mb-2 text-sm text-slate-500">
        <Link href={`/datasets/${encodeURIComponent(record.dataset)}`} className="hover:underline">
          {record.dataset}
        </Link>{" "}
        / line {record.line}
      </nav>
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <h1 className="text-xl font-semibold">Record {record.id}</h1>
        <Badge tone="indigo">{languageName(record.language)}</Badge>
        {record.difficulty ? <Badge>{record.difficulty}</Badge> : null}
        <ExecutableBadge
          value={record.executableValid}
          outcome={record.verificationOutcome}
          flaky={record.flaky}
          isHidden={record.isExecutionHidden}
        />
        <span className="font-mono text-xs text-slate-400" title="Content hash">
          {record.key.slice(0, 12)}
        </span>
      </div>
      <div className="grid gap-4 xl:grid-cols-2">
        <div className="space-y-4">
          <Card title="Question">
            <QuestionMarkdown source={record.question} />
          </Card>
          <EvidencePanel
            executableValid={record.executableValid}
            verificationOutcome={record.verificationOutcome}
            flaky={record.flaky}
            evidence={record.evidence}
            critic={record.critic}
            isExecutionHidden={record.isExecutionHidden}
            isEvidenceHidden={record.isEvidenceHidden}
            isCriticHidden={record.isCriticHidden}
          />
          {can(actor, "datasets:verify") ? (
            <FlakyCheckButton recordId={record.id} onCheck={checkFlakinessAction} />
          ) : null}
          {/* A campaign showing "nothing" keeps the verification from an annotator until their first label. */}
          {record.isExecutionHidden ? null : (
            <VerificationCard runs={verification} outcome={record.verificationOutcome} />
          )}
          <SandboxCard actor={actor} recordId={record.id} unavailableNote={unavailableNote} onRun={runRecordAction} />
          <Card title="Critic">
            {record.isCriticHidden ? (
              <p className="text-sm text-slate-500" data-testid="critic-hidden">
                Hidden while this record is a blind item you have not labelled yet.
              </p>
            ) : (
              <CriticPanel critic={record.critic} />
            )}
          </Card>
          {canReadGold ? (
            <Card title="Gold answer">
              {can(actor, "gold:write") ? (
                <GoldAnswerForm
                  recordId={record.id}
                  answer={gold}
                  onSave={setGoldAnswerAction}
                  onClear={clearGoldAnswerAction}
                />
              ) : (
                <GoldAnswerView answer={gold} />
              )}
            </Card>
          ) : null}
          {extraKeys.length > 0 ? (
            <Card title="Other fields">
              <pre className="max-h-60 overflow-auto font-mono text-xs whitespace-pre-wrap">
                {JSON.stringify(record.extra, null, 2)}
              </pre>
            </Card>
          ) : null}
        </div>
        <div className="space-y-4">
          <Card title={`Revisions (current: ${revisions.current})`}>
            <div className="space-y-3">
              {revisionBase ? (
                <RevisionEditor
                  recordId={record.id}
                  revision={revisionBase.current}
                  waiting={revisionBase.waiting}
                  language={monacoLanguage}
                  current={contentOfColumns(record)}
                  categories={DEFAULT_CATEGORIES.map(({ key, label }) => ({ key, label }))}
                  onPropose={proposeRevisionAction}
                  onRun={runRecordAction}
                />
              ) : null}
              <RevisionHistory
                current={revisions.current}
                revisions={revisions.revisions}
                areJudgementsHidden={revisions.areJudgementsHidden}
              />
            </div>
          </Card>
          <Card title="Canonical solution">
            <CodeViewer code={record.canonicalSolution} language={monacoLanguage} label="Canonical solution" />
          </Card>
          <Card title="Demo test (public)">
            <CodeViewer code={record.demoTestFunc} language={monacoLanguage} label="Demo test" />
          </Card>
          <Card title="Full test (private)">
            <CodeViewer code={record.fullTestFunc} language={monacoLanguage} label="Full test" />
          </Card>
        </div>
      </div>
    </>
  );
}
