import { RecheckButton } from "@/components/sandbox/recheck-button";
import { WorkersCard } from "@/components/sandbox/workers-card";
import { Badge, Card, PageHeader } from "@/components/ui/primitives";
import { LANGUAGE_LABELS } from "@/lib/records/languages";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { getSandboxStatus } from "@/lib/server/workers/status";

import { recheckSandboxAction } from "./actions";
import { countOf } from "@/lib/format/count";

export const metadata = { title: "Sandbox" };
export const dynamic = "force-dynamic";

const SKEW_TONE = { same: "green", older: "amber", newer: "gray", unknown: "gray" } as const;

export default async function SandboxStatusPage() {
  const actor = await requirePageActor("sandbox:admin", "/admin/sandbox");
  const status = await getSandboxStatus({ actor });
  const { isolation, load } = status;

  return (
    <>
      <PageHeader
        title="Sandbox"
        description="Isolation, each language's toolchain and route, the run queue, the verification workers and runs that could not happen. The same summary, without the detail, is in /api/health."
        actions={<RecheckButton recheck={recheckSandboxAction} />}
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Isolation">
          <dl className="grid grid-cols-[8rem_1fr] gap-y-1 text-sm" data-testid="sandbox-isolation">
            <dt className="text-slate-500">Mode</dt>
            <dd>
              <Badge tone={isolation.mode === "bubblewrap" ? "green" : isolation.mode === "unsafe" ? "amber" : "red"}>
                {isolation.mode}
              </Badge>
            </dd>
            <dt className="text-slate-500">Runs as</dt>
            <dd>{isolation.user ?? "the app's own (unprivileged) user"}</dd>
            <dt className="text-slate-500">cgroup</dt>
            <dd>{isolation.cgroup}</dd>
            <dt className="text-slate-500">Job folder</dt>
            <dd>{isolation.jobFolder}</dd>
            {isolation.problem ? (
              <>
                <dt className="text-slate-500">Problem</dt>
                <dd className="text-red-700">{isolation.problem}</dd>
              </>
            ) : null}
            <dt className="text-slate-500">Last probe</dt>
            <dd>
              {status.lastProbeAt
                ? `${status.lastProbeAt.toISOString().slice(0, 19).replace("T", " ")} UTC`
                : "not probed yet"}
            </dd>
          </dl>
        </Card>
        <Card title="Queue">
          <p className="text-sm" data-testid="sandbox-load">
            {load.running} of {countOf(load.slots, "local slot")} in use · {countOf(load.queued, "run")} waiting
          </p>
        </Card>
      </div>
      <WorkersCard workers={status.workers} queue={status.queue} />
      <Card title="Languages" className="mt-4">
        <table className="w-full text-sm" data-testid="sandbox-languages">
          <thead className="text-left text-xs uppercase text-slate-500">
            <tr>
              <th className="py-1">Language</th>
              <th className="py-1">Route</th>
              <th className="py-1">Status</th>
              <th className="py-1">Version here</th>
              <th className="py-1">Reference image</th>
            </tr>
          </thead>
          <tbody>
            {status.languages.map((language) => (
              <tr key={language.language} className="border-t border-slate-100 align-top">
                <td className="py-1.5">{LANGUAGE_LABELS[language.language] ?? language.language}</td>
                <td className="py-1.5">{language.backend}</td>
                <td className="py-1.5">
                  {language.available ? (
                    <Badge tone="green">can run</Badge>
                  ) : (
                    <Badge tone="amber">unavailable here</Badge>
                  )}
                  {language.reason ? <div className="mt-0.5 text-xs text-slate-600">{language.reason}</div> : null}
                </td>
                <td className="py-1.5 font-mono text-xs">{language.version ?? "—"}</td>
                <td className="py-1.5 text-xs">
                  {language.reference.reference}{" "}
                  {language.version ? (
                    <Badge tone={SKEW_TONE[language.reference.skew]}>{language.reference.skew}</Badge>
                  ) : null}
                  {language.reference.note ? (
                    <div className="mt-0.5 text-xs text-slate-600">{language.reference.note}</div>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <Card title="Recent runs that could not happen" className="mt-4">
        {status.recentFailures.length === 0 ? (
          <p className="text-sm text-slate-500">None since the app started.</p>
        ) : (
          <ul className="space-y-1 text-sm" data-testid="sandbox-failures">
            {status.recentFailures.map((failure, index) => (
              <li key={index}>
                <span className="text-slate-500">{failure.at.toISOString().slice(0, 19).replace("T", " ")} UTC</span> ·{" "}
                {failure.language} · {failure.code}: {failure.message}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
