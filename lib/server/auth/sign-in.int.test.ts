// Password sign-in under attack, through next-auth's own credentials callback: limits per client
// address and per account, attempts reserved before any hashing, and no lock-out of the owner.
import { performance } from "node:perf_hooks";

import { afterAll, describe, expect, it } from "vitest";

import { anotherInstance } from "@/lib/testing/another-instance";

import "@/scripts/stamp-peer-address.mjs";
import { makeUser, uniqueName } from "@/lib/testing/factories";
import { hashPassword } from "@/lib/server/db/users";

import { PEER_ADDRESS_HEADER } from "./client-address";
import { authOptions } from "./options";
import { signInBudgets } from "./password-sign-in";

type Authorize = (
  credentials: Record<string, string>,
  request: { headers: Record<string, string>; body: object; query: object; method: string },
) => Promise<unknown>;
const authorize = (
  authOptions.providers.find((provider) => provider.id === "credentials") as unknown as {
    options: { authorize: Authorize };
  }
).options.authorize;

/** One sign-in attempt from a client address: the password was right, wrong, or not checked at all. */
async function attempt(email: string, password: string, address: string): Promise<"ok" | "wrong" | "refused"> {
  try {
    const user = await authorize(
      { email, password },
      { headers: { [PEER_ADDRESS_HEADER]: address }, body: {}, query: {}, method: "POST" },
    );
    return user ? "ok" : "wrong";
  } catch (error) {
    expect((error as Error).message).toMatch(/Too many/);
    return "refused";
  }
}

const tally = (outcomes: string[]) =>
  outcomes.reduce<Record<string, number>>(
    (counts, outcome) => ({ ...counts, [outcome]: (counts[outcome] ?? 0) + 1 }),
    {},
  );
const someAddress = () => `203.0.113.${Math.floor(Math.random() * 250) + 1}-${uniqueName("a")}`;

describe("password sign-in limits", () => {
  // Another app instance: its own connection pool, taking the same budgets as its sign-in would.
  const other = anotherInstance();
  afterAll(() => other.close());

  it("checks at most 10 of 30 simultaneous wrong passwords for one account from one address", async () => {
    const user = await makeUser("ANNOTATOR");
    const address = someAddress();
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, () => attempt(user.email, "wrong password", address)),
    );
    expect(tally(outcomes)).toEqual({ wrong: 10, refused: 20 });
  });

  it("checks at most 10 of 30 simultaneous wrong passwords sent half to this instance and half to another", async () => {
    const user = await makeUser("ANNOTATOR");
    const address = someAddress();
    const takes = signInBudgets(user.email, address);
    const onOther = async () => ((await other.take(takes)) ? "wrong" : "refused");
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? attempt(user.email, "wrong password", address) : onOther())),
    );
    expect(tally(outcomes)).toEqual({ wrong: 10, refused: 20 });
  });

  it("hashes at most 20 attempts from one address, whatever the emails", async () => {
    const address = someAddress();
    const outcomes = await Promise.all(
      Array.from({ length: 25 }, () => attempt(`${uniqueName("nobody")}@example.test`, "wrong password", address)),
    );
    expect(tally(outcomes)).toEqual({ wrong: 20, refused: 5 });
  });

  it("does not lock the owner out when strangers send wrong passwords for their email", async () => {
    const user = await makeUser("REVIEWER");
    const stranger = someAddress();
    const outcomes = await Promise.all(
      Array.from({ length: 15 }, () => attempt(user.email, "a guessed password", stranger)),
    );
    expect(tally(outcomes)).toEqual({ wrong: 10, refused: 5 });
    expect(await attempt(user.email, "correct horse battery", someAddress())).toBe("ok");
  });

  it("slows down guesses at one account from many addresses to one slot every 6 s, and refuses past a 12 s wait", async () => {
    const user = await makeUser("ADMIN");
    const start = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: 25 }, () => attempt(user.email, "wrong password", someAddress())),
    );
    expect(tally(outcomes)).toEqual({ wrong: 22, refused: 3 });
    expect(performance.now() - start).toBeGreaterThan(11_000);
  });

  it("gives back the attempt of a successful sign-in, so one office address is not locked out", async () => {
    const user = await makeUser("ANNOTATOR");
    const office = someAddress();
    for (let i = 0; i < 21; i++) expect(await attempt(user.email, "correct horse battery", office)).toBe("ok");
  });
});

describe("password hashing", () => {
  it("leaves the main event loop free while passwords hash", async () => {
    const before = performance.eventLoopUtilization();
    await Promise.all(Array.from({ length: 4 }, (_, i) => hashPassword(`password number ${i}`)));
    const busy = performance.eventLoopUtilization(before);
    expect(busy.utilization).toBeLessThan(0.3);
  });
});
