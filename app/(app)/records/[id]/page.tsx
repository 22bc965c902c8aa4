import Link from "next/link";
import { notFound } from "next/navigation";

import { CodeViewer } from "@/components/records/code-viewer";
import { CriticPanel } from "@/components/records/critic-panel";
import { ExecutableBadge } from "@/components/records/executable-badge";
import { SandboxCard } from "@/components/records/sandbox-card";
import { VerificationCard } from "@/components/records/verification-card";
import { QuestionMarkdown } from "@/components/records/question-markdown";
import { Badge, Card } from "@/components/ui/primitives";
import { LANGUAGE_LABELS, type Language, MONACO_LANGUAGE } from "@/lib/records/languages";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { getRecord } from "@/lib/server/db/records";
import { getRecordVerification } from "@/lib/server/db/runs";
import { orNotFound } from "@/lib/server/not-found";
import { recordIdSchema } from "@/lib/validation/records";
import { runRecordAction } from "@/app/(app)/records/actions";

export const metadata = { title: "Record" };

export default async function RecordPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePageActor("records:read", `/records/${id}`);
  const recordId = recordIdSchema.safeParse(id);
  if (!recordId.success) notFound();
  const record = await orNotFound(getRecord({ actor, id: recordId.data }));
  const verification = await getRecordVerification({ actor, recordId: recordId.data });
  const monacoLanguage = MONACO_LANGUAGE[record.language as Language] ?? "plaintext";
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
        <Badge tone="indigo">{LANGUAGE_LABELS[record.language as Language] ?? record.language}</Badge>
        {record.difficulty ? <Badge>{record.difficulty}</Badge> : null}
        <ExecutableBadge value={record.executableValid} outcome={record.verificationOutcome} />
        <span className="font-mono text-xs text-slate-400" title="Content hash">
          {record.key.slice(0, 12)}
        </span>
      </div>
      <div className="grid gap-4 xl:grid-cols-2">
        <div className="space-y-4">
          <Card title="Question">
            <QuestionMarkdown source={record.question} />
          </Card>
          <VerificationCard runs={verification} outcome={record.verificationOutcome} />
          <SandboxCard actor={actor} recordId={record.id} language={record.language} onRun={runRecordAction} />
          <Card title="Critic">
            {record.isCriticHidden ? (
              <p className="text-sm text-slate-500" data-testid="critic-hidden">
                Hidden while this record is a blind item you have not labelled yet.
              </p>
            ) : (
              <CriticPanel critic={record.critic} />
            )}
          </Card>
          {extraKeys.length > 0 ? (
            <Card title="Other fields">
              <pre className="max-h-60 overflow-auto font-mono text-xs whitespace-pre-wrap">{JSON.stringify(record.extra, null, 2)}</pre>
            </Card>
          ) : null}
        </div>
        <div className="space-y-4">
          <Card title="Canonical solution">
            <CodeViewer code={record.canonicalSolution} language={monacoLanguage} label="Canonical solution" />
          </Card>
          <Card title="Demo test (public)">
            <CodeViewer code={record.demoTestFunc} language={monacoLanguage} label="Demo test" height={220} />
          </Card>
          <Card title="Full test (private)">
            <CodeViewer code={record.fullTestFunc} language={monacoLanguage} label="Full test" height={320} />
          </Card>
        </div>
      </div>
    </>
  );
}
