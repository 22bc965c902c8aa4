// Rate limits hold across instances: a client alternating between A and B gets the documented
// allowance once, not once per instance. The budgets are those of lib/server/auth/password-sign-in.ts
// (a burst of 10 wrong passwords per account and address, then 5 a minute) and of
// app/api/v1/records/[id]/runs/route.ts (a burst of 20 runs per user, then 30 a minute); the
// bound allows for what refilled while the test ran. While each instance keeps its limits in its
// own memory, a client gets twice the allowance and these tests fail; they pass once the limits
// are kept in PostgreSQL (one budget for all instances).
import { describe, expect, it } from "vitest";

import {
  balancerUrl,
  callApi,
  importDataset,
  instanceA,
  instanceB,
  makePerson,
  pythonRecords,
  signIn,
  through,
} from "./support";

/** The most requests a token bucket can admit in `elapsedMs`: its burst plus what refilled. */
function allowance({ capacity, perMinute }: { capacity: number; perMinute: number }, elapsedMs: number): number {
  return Math.floor(capacity + (perMinute * elapsedMs) / 60_000);
}

describe("rate limits across instances", () => {
  it("wrong passwords for one account from one address, alternating A and B behind the balancer, get one allowance", async () => {
    const target = await makePerson("ANNOTATOR", { hasPassword: true });
    // All at once, half to each instance: each instance alone would allow all of them.
    const attempts = 20;
    const started = Date.now();
    const outcomes = await Promise.all(
      Array.from({ length: attempts }, async (_, attempt) => {
        const result = await signIn(balancerUrl, target.email, "not the password", {
          from: "127.0.0.21",
          headers: through((attempt % 2) as 0 | 1),
        });
        return "error" in result ? result.error : "signed in";
      }),
    );
    const elapsed = Date.now() - started;
    const wrong = outcomes.filter((outcome) => outcome === "CredentialsSignin").length;
    const refused = outcomes.filter((outcome) => /Too many/.test(outcome)).length;
    console.log(
      `[cluster] sign-in: ${wrong} wrong-password answers, ${refused} refused of ${attempts} in ${(elapsed / 1000).toFixed(1)} s`,
    );
    expect(wrong + refused).toBe(attempts);
    expect(wrong).toBeLessThanOrEqual(allowance({ capacity: 10, perMinute: 5 }, elapsed));
  });

  it("sandbox runs of one user alternating A and B get one allowance", async () => {
    // An admin sees every record; the limit is per user whatever the role.
    const runner = await makePerson("ADMIN", { languages: [] });
    const dataset = await importDataset(instanceA, runner, pythonRecords(1, `runs${Date.now()}`));
    const page = await callApi<{ records: { id: number }[] }>(
      instanceA,
      runner.token,
      "GET",
      `/datasets/${dataset}/records`,
    );
    const recordId = page.body.records[0].id;
    // In pairs, one run on each instance at a time (within the per-user limit of runs at once),
    // so that little refills while they go.
    const requests = 30;
    const statuses: number[] = [];
    const started = Date.now();
    for (let pair = 0; pair < requests / 2; pair++) {
      const replies = await Promise.all(
        [instanceA, instanceB].map((base) =>
          callApi(base, runner.token, "POST", `/records/${recordId}/runs`, { kind: "demo" }),
        ),
      );
      statuses.push(...replies.map((reply) => reply.status));
    }
    const elapsed = Date.now() - started;
    const admitted = statuses.filter((status) => status !== 429).length;
    console.log(
      `[cluster] runs: ${admitted} admitted, ${requests - admitted} refused (429) of ${requests} in ${(elapsed / 1000).toFixed(1)} s; statuses ${[...new Set(statuses)].join(", ")}`,
    );
    expect(admitted).toBeLessThanOrEqual(allowance({ capacity: 20, perMinute: 30 }, elapsed));
  });
});
