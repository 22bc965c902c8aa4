import Link from "next/link";

import { RunProgress } from "@/components/critics/run-progress";
import { Badge, Card, PageHeader } from "@/components/ui/primitives";
import { languageName } from "@/lib/records/languages";
import { can } from "@/lib/server/auth/permissions";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import type { CriticResultStatus } from "@/lib/server/critics/queries";
import { getCriticRunProgress } from "@/lib/server/critics/get-critic-run-progress";
import { listCriticRunResults } from "@/lib/server/critics/list-critic-run-results";
import { pathSegment } from "@/lib/server/http";
import { orNotFound } from "@/lib/server/not-found";

import { controlCriticRunAction, criticRunProgressAction } from "../../actions";

export const metadata = { title: "Critic run" };
export const dynamic = "force-dynamic";

const STATUSES: CriticResultStatus[] = ["PARSED", "UNREADABLE", "ERROR"];

function verdictBadge(result: { status: CriticResultStatus; overallPass: boolean | null }) {
  if (result.status === "UNREADABLE") return <Badge tone="amber">unreadable</Badge>;
  if (result.status === "ERROR") return <Badge tone="red">no reply</Badge>;
  return result.overallPass ? <Badge tone="green">pass</Badge> : <Badge tone="red">fail</Badge>;
}

export default async function CriticRunPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ after?: string; status?: string }>;
}) {
  const runId = pathSegment((await params).id);
  const actor = await requirePageActor("critics:read", `/critics/runs/${encodeURIComponent(runId)}`);
  const query = await searchParams;
  const status = STATUSES.find((candidate) => candidate === query.status);
  const after = typeof query.after === "string" ? query.after : undefined;
  const progress = await orNotFound(getCriticRunProgress({ actor, runId }));
  const { results, nextAfter } = await listCriticRunResults({ actor, runId, status, after });
  const link = (changes: { status?: string; after?: string }) => {
    const search = new URLSearchParams();
    if (changes.status) search.set("status", changes.status);
    if (changes.after) search.set("after", changes.after);
    const text = search.toString();
    return `/critics/runs/${encodeURIComponent(runId)}${text ? `?${text}` : ""}`;
  };

  return (
    <>
      <nav className="mb-2 text-sm text-slate-500">
        <Link href="/critics" className="hover:underline">
          Critics
        </Link>{" "}
        / run
      </nav>
      <PageHeader
        title={`${progress.critic} version ${progress.version} on ${progress.dataset}`}
        description={`${progress.language ? `${languageName(progress.language)} only` : "every language"}${progress.campaignId ? " · one campaign's sample" : ""} · started ${progress.createdAt.toISOString().slice(0, 16).replace("T", " ")}`}
        actions={
          <Link
            href={`/datasets/${encodeURIComponent(progress.dataset)}/critics`}
            className="text-sm text-indigo-700 hover:underline"
          >
            Which critic to trust →
          </Link>
        }
      />
      <div className="space-y-6">
        <Card>
          <RunProgress
            initial={progress}
            canControl={can(actor, "critics:admin")}
            readProgress={criticRunProgressAction}
            controlRun={controlCriticRunAction}
          />
        </Card>
        <Card
          title="Replies"
          actions={
            <div className="flex gap-3 text-xs">
              <Link href={link({})} className={status ? "text-indigo-700 hover:underline" : "font-semibold"}>
                all
              </Link>
              {STATUSES.map((candidate) => (
                <Link
                  key={candidate}
                  href={link({ status: candidate })}
                  className={status === candidate ? "font-semibold" : "text-indigo-700 hover:underline"}
                >
                  {candidate === "ERROR" ? "no reply" : candidate.toLowerCase()}
                </Link>
              ))}
            </div>
          }
        >
          <p className="mb-3 text-xs text-slate-500">
            Every reply is kept as it came. One that does not state a verdict is unreadable: it counts neither as pass
            nor as fail, and no figure uses it.
          </p>
          <table className="w-full text-sm" aria-label="Critic replies">
            <thead className="text-left text-xs uppercase text-slate-500">
              <tr>
                <th scope="col" className="py-1 pr-3">
                  Record
                </th>
                <th scope="col" className="py-1 pr-3">
                  Verdict
                </th>
                <th scope="col" className="py-1 pr-3">
                  Failed rules
                </th>
                <th scope="col" className="py-1 pr-3 text-right">
                  Confidence
                </th>
                <th scope="col" className="py-1 pr-3 text-right">
                  Tokens
                </th>
                <th scope="col" className="py-1 pr-3">
                  Reply
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 align-top">
              {results.map((result) => (
                <tr key={result.id}>
                  <td className="py-1.5 pr-3">
                    <Link href={`/records/${result.recordId}`} className="text-indigo-700 hover:underline">
                      {result.title}
                    </Link>{" "}
                    <span className="text-xs text-slate-500">
                      #{result.recordId} · {languageName(result.language)}
                    </span>
                  </td>
                  <td className="py-1.5 pr-3">{verdictBadge(result)}</td>
                  <td className="py-1.5 pr-3 text-xs">{result.failedRules.join(", ") || "—"}</td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">
                    {result.confidence === null ? "—" : result.confidence.toFixed(2)}
                  </td>
                  <td className="py-1.5 pr-3 text-right tabular-nums text-xs">
                    {result.promptTokens === null ? "—" : `${result.promptTokens} + ${result.completionTokens ?? 0}`}
                  </td>
                  <td className="py-1.5 pr-3">
                    <details>
                      <summary className="cursor-pointer text-xs text-slate-600">
                        {result.error ??
                          `${result.attempts} attempt${result.attempts === 1 ? "" : "s"}${result.latencyMs === null ? "" : ` · ${result.latencyMs} ms`}`}
                      </summary>
                      <pre className="mt-1 max-h-64 max-w-xl overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs">
                        {result.raw || "(empty)"}
                      </pre>
                    </details>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {results.length === 0 ? <p className="text-sm text-slate-500">No replies yet.</p> : null}
          {nextAfter ? (
            <Link
              href={link({ status, after: nextAfter })}
              className="mt-2 inline-block text-sm text-indigo-700 hover:underline"
            >
              More replies
            </Link>
          ) : null}
        </Card>
      </div>
    </>
  );
}
