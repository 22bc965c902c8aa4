import { CodeViewer } from "@/components/records/code-viewer";
import { QuestionMarkdown } from "@/components/records/question-markdown";
import { CheckForm } from "@/components/revisions/check-form";
import { Badge, Card, PageHeader } from "@/components/ui/primitives";
import { DEFAULT_CATEGORIES } from "@/lib/annotation/categories";
import { languageName, monacoLanguageOf } from "@/lib/records/languages";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { orNotFound } from "@/lib/server/not-found";
import { getRevisionToCheck } from "@/lib/server/revisions/queries";

import { checkRevisionAction } from "../actions";

export const metadata = { title: "Check a repair" };

/** The blind check: the revised record and its recomputed evidence, nothing of its author's reason or label. */
export default async function CheckRepairPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePageActor("revisions:check", `/repairs/${id}`);
  const revision = await orNotFound(getRevisionToCheck({ actor, revisionId: id }));
  const monaco = monacoLanguageOf(revision.language);
  return (
    <>
      <PageHeader
        title={`Check record ${revision.recordId}, revision ${revision.number}`}
        description="Is this record valid as it stands? Judge it on its own: the reason for the revision is shown once you have decided."
        actions={<Badge tone="indigo">{languageName(revision.language)}</Badge>}
      />
      <div className="grid gap-4 xl:grid-cols-2">
        <div className="space-y-4">
          <Card title="Question">
            <QuestionMarkdown source={revision.content.question} />
          </Card>
          <Card title="Execution of this revision">
            <p className="text-sm" data-testid="revision-evidence">
              Demo test: {revision.evidence.demoOutcome ?? "not run"} · Full test:{" "}
              {revision.evidence.fullOutcome ?? "not run"}
            </p>
          </Card>
          <Card title="Your label">
            <CheckForm
              revisionId={revision.id}
              categories={DEFAULT_CATEGORIES.map(({ key, label }) => ({ key, label }))}
              onCheck={checkRevisionAction}
            />
          </Card>
        </div>
        <div className="space-y-4">
          <Card title="Canonical solution">
            <CodeViewer code={revision.content.canonical_solution} language={monaco} label="Canonical solution" />
          </Card>
          <Card title="Demo test (public)">
            <CodeViewer code={revision.content.demo_test_func} language={monaco} label="Demo test" />
          </Card>
          <Card title="Full test (private)">
            <CodeViewer code={revision.content.full_test_func} language={monaco} label="Full test" />
          </Card>
        </div>
      </div>
    </>
  );
}
