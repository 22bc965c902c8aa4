import { checkDatabase, checkQueue } from "@/lib/server/db/health";
import { languageAvailability } from "@/lib/server/sandbox";

export const dynamic = "force-dynamic";

async function checkSandbox() {
  try {
    const languages = await languageAvailability();
    const available = Object.entries(languages).filter(([, status]) => status.available).map(([language]) => language);
    return { ok: available.length > 0, available, unavailable: Object.fromEntries(Object.entries(languages).filter(([, status]) => !status.available).map(([language, status]) => [language, status.reason ?? "unavailable"])) };
  } catch {
    return { ok: false, available: [], unavailable: {}, error: "The sandbox cannot be probed." };
  }
}

/**
 * GET /api/health — no auth. `{ok, db, queue, sandbox}`: 200 when the database answers (the app can
 * serve), 503 otherwise; the queue and sandbox report their state without failing the check.
 */
export async function GET(): Promise<Response> {
  const [db, queue, sandbox] = await Promise.all([checkDatabase(), checkQueue(), checkSandbox()]);
  return Response.json({ ok: db.ok, db, queue, sandbox }, { status: db.ok ? 200 : 503 });
}
