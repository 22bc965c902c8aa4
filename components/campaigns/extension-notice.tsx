import { RefreshWhileRunning } from "@/components/jobs/refresh-while-running";
import { Card } from "@/components/ui/primitives";
import { countOf } from "@/lib/format/count";

/** The latest extension a job ran on a campaign, as the notice reads it. */
type ExtensionState = {
  status: "RUNNING" | "SUCCEEDED" | "FAILED";
  perLanguage: number | null;
  total: number;
  added: number | null;
  stopReason: string | null;
};

/**
 * Records a job is adding to a campaign (or could not): what is happening, refreshing the page until
 * they are in. Nothing once they are (the items and the history show them), or when none was queued.
 */
export function ExtensionNotice({ extension }: { extension: ExtensionState | null }) {
  if (!extension || extension.status === "SUCCEEDED") return null;
  const isRunning = extension.status === "RUNNING";
  const size = extension.perLanguage === null ? "every record" : `${extension.perLanguage} a language`;
  return (
    <Card title={isRunning ? "Adding records…" : "Records not added"} className="mb-4">
      <p className="text-sm text-slate-700" role="status" data-testid="extension">
        {isRunning
          ? `Adding up to ${countOf(extension.total, "item")} (${size}) in the background (see Jobs). This page shows them as soon as they are in; the items so far can be claimed meanwhile.`
          : `Adding records (${size}) failed: ${extension.stopReason ?? "the job failed"}. The campaign is as it was; add them again.`}
      </p>
      <RefreshWhileRunning isRunning={isRunning} everyMs={2000} />
    </Card>
  );
}
