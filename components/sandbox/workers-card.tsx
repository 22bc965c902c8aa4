import { Badge, Card } from "@/components/ui/primitives";
import { countOf } from "@/lib/format/count";

type Worker = {
  id: string;
  host: string;
  pid: number;
  backend: string;
  concurrency: number;
  startedAt: Date;
  secondsSinceBeat: number;
  isLive: boolean;
  jobs: number;
};
type Queue = {
  ok: boolean;
  depth: number | null;
  oldestWaitingSeconds: number | null;
  active: number | null;
  heldByDeadWorkers: number | null;
  error?: string;
};

const utc = (date: Date) => `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;

/** The verification workers (live ones and dead ones not yet retried) and their queue, for admins. */
export function WorkersCard({ workers, queue }: { workers: Worker[]; queue: Queue }) {
  return (
    <Card title="Verification workers" className="mt-4">
      <p className="text-sm" data-testid="worker-queue">
        {queue.ok
          ? `${countOf(queue.depth ?? 0, "job")} waiting${queue.oldestWaitingSeconds === null ? "" : ` (oldest ${queue.oldestWaitingSeconds} s)`} · ${queue.active} running · ${queue.heldByDeadWorkers} held by dead workers`
          : queue.error}
      </p>
      {workers.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">
          No worker is running: batch verifications wait until one starts (npm run worker, or the app with in-app
          workers).
        </p>
      ) : (
        <table className="mt-2 w-full text-sm" data-testid="workers">
          <thead className="text-left text-xs uppercase text-slate-500">
            <tr>
              <th className="py-1">Host</th>
              <th className="py-1">Status</th>
              <th className="py-1">Last beat</th>
              <th className="py-1">Concurrency</th>
              <th className="py-1">Jobs held</th>
              <th className="py-1">Backend</th>
              <th className="py-1">Started</th>
            </tr>
          </thead>
          <tbody>
            {workers.map((worker) => (
              <tr key={worker.id} className="border-t border-slate-100">
                <td className="py-1.5 font-mono text-xs">
                  {worker.host} (pid {worker.pid})
                </td>
                <td className="py-1.5">
                  {worker.isLive ? <Badge tone="green">live</Badge> : <Badge tone="red">not beating</Badge>}
                </td>
                <td className="py-1.5">{Math.round(worker.secondsSinceBeat)} s ago</td>
                <td className="py-1.5">{worker.concurrency}</td>
                <td className="py-1.5">{worker.jobs}</td>
                <td className="py-1.5">{worker.backend}</td>
                <td className="py-1.5 text-xs text-slate-600">{utc(worker.startedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
