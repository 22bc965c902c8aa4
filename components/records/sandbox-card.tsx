import { RunPanel, type RunRecordAction } from "@/components/records/run-panel";
import { Card } from "@/components/ui/primitives";
import type { Language } from "@/lib/records/languages";
import { type Actor, can } from "@/lib/server/auth/permissions";
import { cannotRunSentence } from "@/lib/server/db/runs";
import { languageAvailability } from "@/lib/server/sandbox";

/** The "Run in the sandbox" card: the run panel, with a plain note when this record's language cannot run right now. */
export async function SandboxCard({ actor, recordId, language, onRun }: { actor: Actor; recordId: number; language: string; onRun: RunRecordAction }) {
  const availability = (await languageAvailability())[language as Language];
  return (
    <Card title="Run in the sandbox">
      <RunPanel recordId={recordId} canRun={can(actor, "sandbox:run")} unavailableNote={availability?.available === false ? cannotRunSentence(language as Language) : undefined} onRun={onRun} />
    </Card>
  );
}
