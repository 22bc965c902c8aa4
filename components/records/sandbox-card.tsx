import { RunPanel } from "@/components/records/run-panel";
import type { RunRecordAction } from "@/components/records/run-result";
import { Card } from "@/components/ui/primitives";
import { parseLanguage } from "@/lib/records/languages";
import { type Actor, can } from "@/lib/server/auth/permissions";
import { languageAvailability } from "@/lib/server/sandbox/availability";
import { cannotRunSentence } from "@/lib/server/runs/run-record";

/** The "Run in the sandbox" card: the run panel, with a plain note when this record's language cannot run right now. */
export async function SandboxCard({
  actor,
  recordId,
  language,
  onRun,
}: {
  actor: Actor;
  recordId: number;
  language: string;
  onRun: RunRecordAction;
}) {
  const known = parseLanguage(language);
  const availability = (await languageAvailability())[known];
  return (
    <Card title="Run in the sandbox">
      <RunPanel
        recordId={recordId}
        canRun={can(actor, "sandbox:run")}
        unavailableNote={availability?.available === false ? cannotRunSentence(known) : undefined}
        onRun={onRun}
      />
    </Card>
  );
}
