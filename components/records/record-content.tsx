import { CodeViewer } from "@/components/records/code-viewer";
import { QuestionMarkdown } from "@/components/records/question-markdown";
import { Card } from "@/components/ui/primitives";

/** A record's statement and code: question, canonical solution, demo and full test (read-only Monaco). */
export function RecordContent({
  record,
  monacoLanguage,
}: {
  record: { question: string; canonicalSolution: string; demoTestFunc: string; fullTestFunc: string };
  monacoLanguage: string;
}) {
  return (
    <>
      <Card title="Question">
        <QuestionMarkdown source={record.question} />
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
    </>
  );
}
