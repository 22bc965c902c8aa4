import { checkDatabase, checkQueue } from "@/lib/server/db/health";
import { sandboxHealth } from "@/lib/server/sandbox/status";

export const dynamic = "force-dynamic";

async function checkSandbox() {
  try {
    return await sandboxHealth();
  } catch {
    return { ok: false, error: "The sandbox cannot be probed." };
  }
}

/**
 * GET /api/health — no auth. `{ok, db, queue, sandbox}`: 200 when the database answers (the app can
 * serve), 503 otherwise; the queue and sandbox report their state without failing the check. The
 * sandbox part is a summary (isolation mode, languages that can and cannot run, runs going and
 * waiting); why a language cannot run is on the admin page (/admin/sandbox) only.
 */
export async function GET(): Promise<Response> {
  const [db, queue, sandbox] = await Promise.all([checkDatabase(), checkQueue(), checkSandbox()]);
  return Response.json({ ok: db.ok, db, queue, sandbox }, { status: db.ok ? 200 : 503 });
}
