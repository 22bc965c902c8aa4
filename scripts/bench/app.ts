// Shared by the benchmark scripts that drive a production server over HTTP.
import { spawn, type ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * Starts `verity serve` (production build) on `port` against `databaseUrl`, in-app workers off, and
 * waits for /api/health. Instances given the same NEXTAUTH_SECRET (in `env`) accept each other's sessions.
 */
export async function startApp(
  databaseUrl: string,
  port: number,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["scripts/verity.mjs", "serve"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      VERITY_DEMO: "0",
      VERITY_IN_APP_WORKERS: "0",
      NEXTAUTH_SECRET: "bench-only",
      VERITY_PUBLIC_URL: base,
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let attempt = 0; attempt < 300; attempt++) {
    if (server.exitCode !== null) break;
    if (
      await fetch(`${base}/api/health`)
        .then((response) => response.ok)
        .catch(() => false)
    )
      return server;
    await sleep(1000);
  }
  server.kill();
  throw new Error(`the app did not come up on port ${port}`);
}

/** Stops a server started by `startApp` and waits for it (and so its Next.js child) to exit. */
export async function stopApp(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await Promise.race([exited, sleep(10_000)]);
}

/** Signs in through next-auth's credentials flow and returns the session cookie header. */
export async function signInWithPassword(base: string, email: string, password: string): Promise<string> {
  const csrfResponse = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
  const cookies = csrfResponse.headers.getSetCookie().map((cookie) => cookie.split(";")[0]);
  const response = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies.join("; ") },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  const session = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .find((cookie) => cookie.includes("session-token"));
  if (!session) throw new Error(`sign-in failed for ${email}`);
  return session;
}
