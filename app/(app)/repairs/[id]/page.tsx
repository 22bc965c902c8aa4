import { EvidencePanel } from "@/components/evidence/evidence-panel";
import { CodeViewer } from "@/components/records/code-viewer";
import { QuestionMarkdown } from "@/components/records/question-markdown";
import { CheckForm } from "@/components/revisions/check-form";
import { RevisionRuns } from "@/components/revisions/revision-runs";
import { Badge, Card, PageHeader } from "@/components/ui/primitives";
import { ShortcutSheet } from "@/components/workspace/shortcut-sheet";
import { DEFAULT_CATEGORIES } from "@/lib/annotation/categories";
import { NO_EVIDENCE } from "@/lib/evidence/types";
import { languageName, monacoLanguageOf } from "@/lib/records/languages";
import { can } from "@/lib/server/auth/permissions";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { orNotFound } from "@/lib/server/not-found";
import { getRevisionToCheck } from "@/lib/server/revisions/queries";

import { runRecordAction } from "@/app/(app)/records/actions";
import { checkRevisionAction } from "../actions";

export const metadata = { title: "Check a repair" };

/** The outcome the evidence panel names: PASSED when both tests pass, else the first failing one (demo before full). */
function outcomeOf(evidence: {
  demoOutcome: string | null;
  fullOutcome: string | null;
  executableValid: boolean | null;
}) {
  if (evidence.executableValid) return "PASSED";
  return evidence.demoOutcome && evidence.demoOutcome !== "PASSED" ? evidence.demoOutcome : evidence.fullOutcome;
}

/**
 * The blind check: the revised record and its recomputed evidence, nothing of its author's reason or
 * label, labelled as the workspace labels (V, I, N, Enter; R runs the revised tests; ? lists the keys).
 */
export default async function CheckRepairPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePageActor("revisions:check", `/repairs/${id}`);
  const revision = await orNotFound(getRevisionToCheck({ actor, revisionId: id }));
  const monaco = monacoLanguageOf(revision.language);
  const { content } = revision;
  return (
    <>
      <PageHeader
        title={`Check record ${revision.recordId}, revision ${revision.number}`}
        description="Is this record valid as it stands? Judge it on its own: the reason for the revision is shown once you have decided."
        actions={
          <div className="flex items-center gap-2">
            <Badge tone="indigo">{languageName(revision.language)}</Badge>
            <ShortcutSheet page="check" />
          </div>
        }
      />
      <div className="grid gap-4 xl:grid-cols-2">
        <div className="space-y-4">
          <Card title="Question">
            <QuestionMarkdown source={content.question} />
          </Card>
          <Card title="Your label">
            <CheckForm
              revisionId={revision.id}
              categories={DEFAULT_CATEGORIES.map(({ key, label, description, invalidating }) => ({
                key,
                label,
                description,
                invalidating,
              }))}
              onCheck={checkRevisionAction}
            />
          </Card>
          {/* Measured on this revision: its execution. The rest was measured on the content it
              replaces, and the critic's verdict would tell the checker what someone thought of it. */}
          <EvidencePanel
            executableValid={revision.evidence.executableValid}
            verificationOutcome={outcomeOf(revision.evidence)}
            evidence={NO_EVIDENCE}
            critic={null}
          />
          <div className="-mt-2 space-y-1 text-xs text-slate-500">
            <p data-testid="revision-evidence">
              Demo test: {revision.evidence.demoOutcome ?? "not run"} · Full test:{" "}
              {revision.evidence.fullOutcome ?? "not run"}
            </p>
            <p>
              Stability, test strength, solvers and the critic were measured on the content this revision replaces, so
              they are not shown here.
            </p>
          </div>
          <Card title="Run">
            <RevisionRuns
              recordId={revision.recordId}
              code={{
                solution: content.canonical_solution,
                demo: content.demo_test_func,
                full: content.full_test_func,
              }}
              canRun={can(actor, "sandbox:run")}
              onRun={runRecordAction}
            />
          </Card>
        </div>
        <div className="space-y-4">
          <Card title="Canonical solution">
            <CodeViewer code={content.canonical_solution} language={monaco} label="Canonical solution" />
          </Card>
          <Card title="Demo test (public)">
            <CodeViewer code={content.demo_test_func} language={monaco} label="Demo test" />
          </Card>
          <Card title="Full test (private)">
            <CodeViewer code={content.full_test_func} language={monaco} label="Full test" />
          </Card>
        </div>
      </div>
    </>
  );
}
