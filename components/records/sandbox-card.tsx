import { RunPanel } from "@/components/records/run-panel";
import type { RunRecordAction } from "@/components/records/run-result";
import { Card } from "@/components/ui/primitives";
import { type Actor, can } from "@/lib/server/auth/permissions";

/** The "Run in the sandbox" card: the run panel, with a plain note when this record's language cannot run right now. */
export function SandboxCard({
  actor,
  recordId,
  unavailableNote,
  onRun,
}: {
  actor: Actor;
  recordId: number;
  /** From `sandboxUnavailableNote`: why this record's language cannot run right now. */
  unavailableNote: string | undefined;
  onRun: RunRecordAction;
}) {
  return (
    <Card title="Run in the sandbox">
      <RunPanel
        recordId={recordId}
        canRun={can(actor, "sandbox:run")}
        unavailableNote={unavailableNote}
        onRun={onRun}
      />
    </Card>
  );
}
