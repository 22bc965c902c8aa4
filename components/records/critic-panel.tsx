import { InlineMarkdown } from "@/components/records/question-markdown";
import { Badge } from "@/components/ui/primitives";
import type { CriticVerdict } from "@/lib/records/critic";

/** The LLM critic's verdict: overall, failed rules, per-rule reasons, key points, reasoning and raw text. */
export function CriticPanel({ critic }: { critic: CriticVerdict | null }) {
  if (!critic) return <p className="text-sm text-slate-500">No critic verdict for this record.</p>;
  return (
    <div className="space-y-4 text-sm">
      <div className="flex items-center gap-2">
        <span className="font-medium">Overall:</span>
        {critic.overallPass === true ? (
          <Badge tone="green">pass</Badge>
        ) : critic.overallPass === false ? (
          <Badge tone="red">fail</Badge>
        ) : (
          <Badge tone="amber">unclear</Badge>
        )}
        {critic.failedRules.length > 0 ? (
          <span className="text-slate-600">failed: {critic.failedRules.join(", ")}</span>
        ) : null}
      </div>
      {critic.rules.length > 0 ? (
        <ul className="divide-y divide-slate-100 rounded-md ring-1 ring-slate-200">
          {critic.rules.map((rule, index) => (
            <li key={`${rule.rule}-${index}`} className="flex gap-3 px-3 py-2">
              <span className="w-12 shrink-0">
                {rule.passed === false ? (
                  <Badge tone="red">fail</Badge>
                ) : rule.passed === true ? (
                  <Badge tone="green">pass</Badge>
                ) : (
                  <Badge>?</Badge>
                )}
              </span>
              <div>
                <div className="font-medium text-slate-800">{rule.rule}</div>
                {rule.reason ? (
                  <p className="text-slate-600">
                    <InlineMarkdown source={rule.reason} />
                  </p>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {critic.keyPoints.length > 0 ? (
        <div>
          <h3 className="font-medium">Key points</h3>
          <ul className="mt-1 list-disc space-y-1 pl-5 text-slate-700">
            {critic.keyPoints.map((point, index) => (
              <li key={index}>
                <InlineMarkdown source={point} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {critic.reasoning ? (
        <details>
          <summary className="cursor-pointer font-medium">Reasoning</summary>
          <p className="mt-2 whitespace-pre-wrap text-slate-700">{critic.reasoning}</p>
        </details>
      ) : null}
      <details>
        <summary className="cursor-pointer font-medium">Raw critic output</summary>
        <pre className="mt-2 max-h-80 overflow-auto rounded bg-slate-900 p-3 font-mono text-xs whitespace-pre-wrap text-slate-100">
          {critic.raw}
        </pre>
      </details>
    </div>
  );
}
