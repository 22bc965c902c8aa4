import Link from "next/link";

import { CriticForm } from "@/components/critics/critic-form";
import { StartRunForm } from "@/components/critics/start-run-form";
import { Badge, Card, PageHeader } from "@/components/ui/primitives";
import { can } from "@/lib/server/auth/permissions";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { listCriticRuns } from "@/lib/server/critics/list-critic-runs";
import { listCritics } from "@/lib/server/critics/list-critics";
import { listDatasets } from "@/lib/server/records/records";

import { saveCriticAction, startCriticRunAction } from "./actions";

export const metadata = { title: "Critics" };
export const dynamic = "force-dynamic";

export default async function CriticsPage({ searchParams }: { searchParams: Promise<{ before?: string }> }) {
  const actor = await requirePageActor("critics:read", "/critics");
  const { before } = await searchParams;
  const [critics, { runs, nextBefore }] = await Promise.all([
    listCritics({ actor }),
    listCriticRuns({ actor, before: typeof before === "string" ? before : undefined }),
  ]);
  const isAdmin = can(actor, "critics:admin");
  const runnable = critics.filter((critic) => critic.kind === "ENDPOINT");
  const datasets = isAdmin ? (await listDatasets({ actor })).map((dataset) => dataset.name) : [];

  return (
    <>
      <PageHeader
        title="Critics"
        description="LLM critics on OpenAI-compatible endpoints. Each verdict keeps the prompt version that made it; a dataset's Critics page ranks the versions against people's final labels."
      />
      <div className="space-y-6">
        <Card title="Critics and their versions">
          <table className="w-full text-sm" aria-label="Critics">
            <thead className="text-left text-xs uppercase text-slate-500">
              <tr>
                <th scope="col" className="py-1 pr-3">
                  Critic
                </th>
                <th scope="col" className="py-1 pr-3">
                  Endpoint
                </th>
                <th scope="col" className="py-1 pr-3">
                  API key
                </th>
                <th scope="col" className="py-1 pr-3">
                  Versions (model, temperature, first used)
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {critics.map((critic) => (
                <tr key={critic.id}>
                  <th scope="row" className="py-2 pr-3 text-left font-medium">
                    {critic.name}
                  </th>
                  <td className="py-2 pr-3 text-xs text-slate-600">
                    {critic.kind === "IMPORTED"
                      ? "the record files' verdicts"
                      : `${critic.baseUrl} · ${critic.concurrency} at once`}
                  </td>
                  <td className="py-2 pr-3 text-xs">
                    {critic.kind === "IMPORTED"
                      ? "—"
                      : critic.apiKeyEnv
                        ? `$${critic.apiKeyEnv}`
                        : critic.hasStoredKey
                          ? "stored"
                          : "none"}
                  </td>
                  <td className="py-2 pr-3">
                    <ul className="flex flex-wrap gap-1.5">
                      {critic.versions.map((version) => (
                        <li key={version.id}>
                          <Badge
                            tone={version.usedAt ? "indigo" : "gray"}
                            title={version.usedAt ? "used: immutable" : "not used yet: editable"}
                          >
                            v{version.number}
                            {critic.kind === "IMPORTED" ? "" : ` · ${version.model} · t=${version.temperature}`}
                          </Badge>
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
        {isAdmin ? (
          <>
            <Card title="Define or edit a critic">
              <CriticForm
                critics={runnable.map((critic) => ({
                  name: critic.name,
                  baseUrl: critic.baseUrl,
                  apiKeyEnv: critic.apiKeyEnv,
                  hasStoredKey: critic.hasStoredKey,
                  concurrency: critic.concurrency,
                  timeoutMs: critic.timeoutMs,
                  model: critic.versions[0]?.model ?? "",
                  temperature: critic.versions[0]?.temperature ?? 0,
                  maxTokens: critic.versions[0]?.maxTokens ?? 2048,
                  template: critic.versions[0]?.template ?? "",
                }))}
                saveCritic={saveCriticAction}
              />
            </Card>
            <Card title="Run a critic">
              <StartRunForm
                critics={runnable.map((critic) => ({ name: critic.name, version: critic.versions[0]?.number ?? 1 }))}
                datasets={datasets}
                startRun={startCriticRunAction}
              />
            </Card>
          </>
        ) : null}
        <Card title="Runs">
          <table className="w-full text-sm" aria-label="Critic runs">
            <thead className="text-left text-xs uppercase text-slate-500">
              <tr>
                <th scope="col" className="py-1 pr-3">
                  Run
                </th>
                <th scope="col" className="py-1 pr-3">
                  Dataset
                </th>
                <th scope="col" className="py-1 pr-3">
                  Status
                </th>
                <th scope="col" className="py-1 pr-3 text-right">
                  Done
                </th>
                <th scope="col" className="py-1 pr-3 text-right">
                  Pass
                </th>
                <th scope="col" className="py-1 pr-3 text-right">
                  Fail
                </th>
                <th scope="col" className="py-1 pr-3 text-right">
                  Unreadable
                </th>
                <th scope="col" className="py-1 pr-3">
                  Started
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {runs.map((run) => (
                <tr key={run.runId}>
                  <td className="py-1.5 pr-3">
                    <Link
                      href={`/critics/runs/${encodeURIComponent(run.runId)}`}
                      className="text-indigo-700 hover:underline"
                    >
                      {run.critic} v{run.version}
                    </Link>
                  </td>
                  <td className="py-1.5 pr-3">
                    <Link href={`/datasets/${encodeURIComponent(run.dataset)}/critics`} className="hover:underline">
                      {run.dataset}
                    </Link>
                    {run.language ? ` · ${run.language}` : ""}
                    {run.campaignId ? " · campaign sample" : ""}
                  </td>
                  <td className="py-1.5 pr-3">{run.status.toLowerCase()}</td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">
                    {run.done}/{run.total}
                  </td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">{run.pass}</td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">{run.fail}</td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">{run.unreadable}</td>
                  <td className="py-1.5 pr-3 text-xs text-slate-600">
                    {run.createdAt.toISOString().slice(0, 16).replace("T", " ")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {runs.length === 0 ? <p className="text-sm text-slate-500">No runs yet.</p> : null}
          {nextBefore ? (
            <Link
              href={`/critics?before=${encodeURIComponent(nextBefore)}`}
              className="mt-2 inline-block text-sm text-indigo-700 hover:underline"
            >
              Older runs
            </Link>
          ) : null}
        </Card>
      </div>
    </>
  );
}
