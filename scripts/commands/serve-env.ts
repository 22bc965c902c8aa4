import { join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * The environment `verity serve` gives Next.js: the database, the session secret and public URL, the
 * peer-address preload for the sign-in limits, and Next.js's anonymous telemetry off unless the
 * operator set NEXT_TELEMETRY_DISABLED themselves (a self-hosted tool should not phone home by default).
 */
export function nextServerEnvironment({
  base,
  databaseUrl,
  secret,
  publicUrl,
  port,
  cwd,
}: {
  base: Record<string, string | undefined>;
  databaseUrl: string;
  secret: string;
  publicUrl: string;
  port: number;
  cwd: string;
}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {
    ...base,
    NEXT_TELEMETRY_DISABLED: base.NEXT_TELEMETRY_DISABLED ?? "1",
    DATABASE_URL: databaseUrl,
    NEXTAUTH_SECRET: secret,
    NEXTAUTH_URL: publicUrl,
    PORT: String(port),
    // Records each request's peer address for the sign-in limits (see the file).
    NODE_OPTIONS:
      `${base.NODE_OPTIONS ?? ""} --import=${pathToFileURL(join(cwd, "scripts", "stamp-peer-address.mjs")).href}`.trim(),
  };
  // process.env's type also names NODE_ENV, which Next.js sets itself when it starts.
  return env as NodeJS.ProcessEnv;
}
