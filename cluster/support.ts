// What the cluster tests share: the instances' addresses, people with API tokens (made straight in
// the database, as an operator's `verity users add` would), and small HTTP helpers.
import { request as httpRequest } from "node:http";

import { inject } from "vitest";

import type { Role } from "@/lib/generated/prisma/enums";
import { makeRecord, toJsonl, uniqueName } from "@/lib/testing/factories";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { createApiToken } from "@/lib/server/users/tokens";
import { upsertUserFromCli } from "@/lib/server/users/users";

export const cluster = inject("cluster");
export const [instanceA, instanceB] = cluster.instanceUrls;
export const balancerUrl = cluster.balancerUrl;

/** Headers that make the balancer send a request to instance A (0) or B (1). */
export const through = (instance: 0 | 1) => ({ "x-cluster-upstream": String(instance) });
export const PASSWORD = "cluster-password-1";

export type Person = { id: string; email: string; token: string };

/** A user with an API token and, when asked (hashing costs time), the password PASSWORD. */
export async function makePerson(
  role: Role,
  { languages = ["python"], hasPassword = false }: { languages?: string[]; hasPassword?: boolean } = {},
): Promise<Person> {
  const email = `${uniqueName(role.toLowerCase())}@cluster.test`;
  const { actor } = await upsertUserFromCli({
    actor: SYSTEM_ACTOR.cli,
    email,
    role,
    languages,
    password: hasPassword ? PASSWORD : undefined,
  });
  const { token } = await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: actor.id, name: "cluster" });
  return { id: actor.id, email, token };
}

export type Reply<T = unknown> = { status: number; body: T };

/** One /api/v1 call with a bearer token against `base` (an instance). */
export async function callApi<T = unknown>(
  base: string,
  token: string,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
): Promise<Reply<T>> {
  const response = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/** Imports `records` (default: python records that pass) into a new dataset through `base`; returns its name. */
export async function importDataset(base: string, admin: Person, records: Record<string, unknown>[]): Promise<string> {
  const name = uniqueName("cluster");
  const response = await fetch(`${base}/api/v1/datasets/${name}/records`, {
    method: "POST",
    headers: { authorization: `Bearer ${admin.token}`, "content-type": "application/x-ndjson" },
    body: toJsonl(records),
  });
  if (response.status !== 201) throw new Error(`import answered ${response.status}: ${await response.text()}`);
  return name;
}

/** `count` distinct python records that pass their tests. */
export function pythonRecords(
  count: number,
  prefix: string,
  overrides: (index: number, seed: string) => Record<string, unknown> = () => ({}),
): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, index) => {
    const seed = `${prefix}_${index}`;
    return makeRecord(seed, overrides(index, seed));
  });
}

/**
 * A raw HTTP request from the loopback address `from` (so tests that spend a per-address budget
 * do not share it with the others). Returns status, body and the cookies set.
 */
export function rawRequest(
  url: string,
  {
    method = "GET",
    from = "127.0.0.1",
    headers = {},
    body,
  }: { method?: string; from?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string; cookies: string[] }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method,
        localAddress: from,
        headers,
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            body: text,
            cookies: (response.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]),
          }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/**
 * One password sign-in through next-auth's credentials flow at `base`, as the sign-in form does.
 * Returns the session cookie, or the error next-auth reported ("CredentialsSignin" for a wrong
 * password, the limiter's "Too many attempts…" when refused).
 */
export async function signIn(
  base: string,
  email: string,
  password: string,
  { from = "127.0.0.1", headers = {} }: { from?: string; headers?: Record<string, string> } = {},
): Promise<{ cookie: string } | { error: string }> {
  const csrf = await rawRequest(`${base}/api/auth/csrf`, { from, headers });
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const reply = await rawRequest(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    from,
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded", cookie: csrf.cookies.join("; ") },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }).toString(),
  });
  const error = new URL((JSON.parse(reply.body) as { url: string }).url).searchParams.get("error");
  if (error) return { error };
  const session = reply.cookies.find((cookie) => cookie.includes("session-token"));
  if (!session) throw new Error(`sign-in at ${base} set no session cookie (status ${reply.status})`);
  return { cookie: session };
}

/** Polls `check` every 250 ms until it returns a value, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | null | undefined>,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Why the sandbox cannot run Python here (from instance A's health check), or null. */
export async function pythonUnavailable(): Promise<string | null> {
  const health = (await (await fetch(`${instanceA}/api/health`)).json()) as { sandbox: { available?: string[] } };
  return health.sandbox.available?.includes("python")
    ? null
    : "the local sandbox cannot run Python (npm run sandbox:install)";
}
