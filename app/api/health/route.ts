import { checkDatabase, checkQueue } from "@/lib/server/db/health";
import { listWorkers } from "@/lib/server/workers/heartbeats";
import { VERIFY_QUEUE } from "@/lib/server/verification/jobs";
import { DEAD_AFTER_MS } from "@/lib/server/workers/workers";
import { sandboxHealth } from "@/lib/server/workers/status";

export const dynamic = "force-dynamic";

async function checkSandbox() {
  try {
    return await sandboxHealth();
  } catch {
    return { ok: false, error: "The sandbox cannot be probed." };
  }
}

/** Live workers without their host or pid (those name machines; the admin page has them). */
async function liveWorkers() {
  try {
    const workers = await listWorkers(DEAD_AFTER_MS);
    return workers
      .filter((worker) => worker.isLive)
      .map((worker) => ({
        lastBeatSecondsAgo: Math.round(worker.secondsSinceBeat),
        concurrency: worker.concurrency,
        backend: worker.backend,
        jobs: worker.jobs,
      }));
  } catch {
    return null;
  }
}

/**
 * GET /api/health — no auth. `{ok, db, queue, workers, sandbox}`: 200 when the database answers (the
 * app can serve), 503 otherwise. `ok` is true only when the database answers and at least one
 * language can run (a sandbox whose isolation fails runs nothing, so the instance is not healthy,
 * though it still serves pages: 200 with `ok: false`); the queue and workers report their state
 * without failing the check. The queue part gives its depth, the oldest waiting job's age, active jobs and those held
 * by dead workers; workers lists the live ones (last beat, concurrency, backend, jobs held). The
 * sandbox part is a summary (isolation mode, languages that can and cannot run, runs going and
 * waiting); why a language cannot run, and which hosts run workers, is on the admin page
 * (/admin/sandbox) only.
 */
export async function GET(): Promise<Response> {
  const [db, queue, workers, sandbox] = await Promise.all([
    checkDatabase(),
    checkQueue({ queue: VERIFY_QUEUE, deadAfterMs: DEAD_AFTER_MS }),
    liveWorkers(),
    checkSandbox(),
  ]);
  return Response.json({ ok: db.ok && sandbox.ok, db, queue, workers, sandbox }, { status: db.ok ? 200 : 503 });
}
