import { request as httpRequest } from "node:http";

import { expect, test } from "@playwright/test";

import { GLOBAL_STATE } from "./people";

// Sign-in limits follow the address the connection comes from, not a header the client writes:
// one address that used up its attempts is refused even when it sends X-Forwarded-For, while
// another address still gets its passwords checked. Loopback addresses stand in for two clients.
// Global state: its 21 attempts at once fill the server's line of passwords waiting to be hashed,
// which every sign-in shares (playwright.config.ts runs it alone, after the parallel lane).

const PORT = Number(process.env.VERITY_E2E_PORT ?? 3100);

type Reply = { status: number; body: string; cookies: string[] };

function send(
  method: "GET" | "POST",
  path: string,
  { from, body, headers = {} }: { from: string; body?: string; headers?: Record<string, string> },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: "127.0.0.1", port: PORT, path, method, localAddress: from, headers },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, body: text, cookies: response.headers["set-cookie"] ?? [] }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** A client at the loopback address `from`: its CSRF token and cookie, as a browser would hold them. */
async function clientAt(from: string) {
  const csrf = await send("GET", "/api/auth/csrf", { from });
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  return { from, csrfToken, cookie: csrf.cookies.map((c) => c.split(";")[0]).join("; ") };
}

/** One password sign-in; what next-auth answered. */
async function signIn(
  { from, csrfToken, cookie }: Awaited<ReturnType<typeof clientAt>>,
  email: string,
  extraHeaders: Record<string, string> = {},
): Promise<"wrong" | "refused"> {
  const body = new URLSearchParams({ csrfToken, email, password: "not the password", json: "true" }).toString();
  const reply = await send("POST", "/api/auth/callback/credentials", {
    from,
    body,
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, ...extraHeaders },
  });
  const { url } = JSON.parse(reply.body) as { url: string };
  const error = new URL(url).searchParams.get("error") ?? "";
  if (/Too many/.test(error)) return "refused";
  expect(error).toBe("CredentialsSignin");
  return "wrong";
}

test(
  "an address that used up its sign-in attempts is refused whatever X-Forwarded-For says; another address is not",
  { tag: GLOBAL_STATE },
  async () => {
    test.setTimeout(180_000);
    const [first, second] = await Promise.all([clientAt("127.0.0.3"), clientAt("127.0.0.4")]);
    // All at once, so the per-address budget (20, then 10 a minute) has no time to refill.
    const outcomes = await Promise.all(
      Array.from({ length: 21 }, (_, i) =>
        signIn(first, `nobody-${Date.now()}-${i}@example.test`, { "x-forwarded-for": `198.51.100.${i}` }),
      ),
    );
    expect(outcomes.filter((o) => o === "wrong")).toHaveLength(20);
    expect(outcomes.filter((o) => o === "refused")).toHaveLength(1);
    expect(await signIn(second, `nobody-${Date.now()}@example.test`)).toBe("wrong");
  },
);
