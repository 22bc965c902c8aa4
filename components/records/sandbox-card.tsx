import { RunPanel } from "@/components/records/run-panel";
import { Card } from "@/components/ui/primitives";
import type { Language } from "@/lib/records/languages";
import { type Actor, can } from "@/lib/server/auth/permissions";
import { languageAvailability } from "@/lib/server/sandbox";

/** The "Run in the sandbox" card: the run panel, or why this record's language cannot run here. */
export async function SandboxCard({ actor, recordId, language }: { actor: Actor; recordId: number; language: string }) {
  const availability = (await languageAvailability())[language as Language];
  return (
    <Card title="Run in the sandbox">
      <RunPanel recordId={recordId} canRun={can(actor, "sandbox:run")} unavailableReason={availability?.available === false ? (availability.reason ?? "no toolchain") : undefined} />
    </Card>
  );
}
