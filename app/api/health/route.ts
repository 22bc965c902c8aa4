import { checkDatabase } from "@/lib/server/db/health";

export const dynamic = "force-dynamic";

/** GET /api/health — no auth; 200 `{ok, db}` when the database answers, 503 otherwise. */
export async function GET(): Promise<Response> {
  const db = await checkDatabase();
  return Response.json({ ok: db.ok, db }, { status: db.ok ? 200 : 503 });
}
