// Password sign-in under attack, through next-auth's own credentials callback: limits per client
// address and per account, attempts reserved before any hashing, and no lock-out of the owner
// (those on a clock the test moves by hand, through signInWithPassword).
import { performance } from "node:perf_hooks";

import bcrypt from "bcryptjs";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";

import { anotherInstance } from "@/lib/testing/another-instance";

import "@/scripts/stamp-peer-address.mjs";
import { comparePassword } from "@/lib/server/auth/password-hasher";
import { prisma } from "@/lib/server/db/client";
import { makeUser, uniqueName } from "@/lib/testing/factories";
import { hashPassword } from "@/lib/server/users/users";

import { PEER_ADDRESS_HEADER } from "./client-address";
import { authOptions } from "./options";
import { type SignInClock, signInBudgets, signInWithPassword } from "./password-sign-in";

// The limits are the subject here, not bcrypt's cost (auth.int.test.ts proves every stored password
// has cost 12): the product's hasher is watched, so the tests count the passwords it was asked to
// check, and the accounts they sign in to have their password hashed at bcrypt's least cost, so a
// check takes a millisecond instead of a quarter of a second. An unknown email is still checked
// against the product's cost-12 stand-in hash.
vi.mock("@/lib/server/auth/password-hasher", async (importOriginal) => {
  const hasher = await importOriginal<typeof import("@/lib/server/auth/password-hasher")>();
  return { ...hasher, comparePassword: vi.fn(hasher.comparePassword) };
});
const checks = vi.mocked(comparePassword);
// In braces: a hook that returns a function has it called after the test, as its cleanup.
beforeEach(() => {
  checks.mockClear();
});

const CHEAP_HASH = bcrypt.hashSync("correct horse battery", 4);

/** A user whose password ("correct horse battery") is checked in a millisecond. */
async function makeCheapUser(role: Parameters<typeof makeUser>[0]) {
  const user = await makeUser(role);
  await prisma().user.update({ where: { id: user.id }, data: { passwordHash: CHEAP_HASH } });
  return user;
}

type Authorize = (
  credentials: Record<string, string>,
  request: { headers: Record<string, string>; body: object; query: object; method: string },
) => Promise<unknown>;
// next-auth keeps the configured callback in the provider's `options` (its top-level authorize is a stub).
const authorize: Authorize = authOptions.providers.find((provider) => provider.id === "credentials")?.options.authorize;

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
const unknownEmail = () => `${uniqueName("nobody")}@example.test`;
const someAddress = () => `203.0.113.${Math.floor(Math.random() * 250) + 1}-${uniqueName("a")}`;

describe("password sign-in limits", () => {
  // Another app instance: its own connection pool, taking the same budgets as its sign-in would.
  const other = anotherInstance();
  afterAll(() => other.close());

  it("checks at most 10 of 30 simultaneous wrong passwords for one account from one address", async () => {
    const user = await makeCheapUser("ANNOTATOR");
    const address = someAddress();
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, () => attempt(user.email, "wrong password", address)),
    );
    expect(tally(outcomes)).toEqual({ wrong: 10, refused: 20 });
    expect(checks).toHaveBeenCalledTimes(10);
  });

  it("checks at most 10 of 30 simultaneous wrong passwords sent half to this instance and half to another", async () => {
    const user = await makeCheapUser("ANNOTATOR");
    const address = someAddress();
    const takes = signInBudgets(user.email, address);
    const onOther = async () => ((await other.take(takes)) ? "wrong" : "refused");
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? attempt(user.email, "wrong password", address) : onOther())),
    );
    expect(tally(outcomes)).toEqual({ wrong: 10, refused: 20 });
    // The other instance's takes check no password; this one checked only those it let through.
    expect(checks).toHaveBeenCalledTimes(outcomes.filter((outcome, i) => i % 2 === 0 && outcome === "wrong").length);
  });

  it("hashes at most 20 attempts from one address, whatever the emails", async () => {
    const address = someAddress();
    // 22 accounts and 3 emails of nobody's, each tried once.
    const accounts = await Promise.all(Array.from({ length: 22 }, () => makeCheapUser("ANNOTATOR")));
    const emails = [...accounts.map((account) => account.email), ...Array.from({ length: 3 }, unknownEmail)];
    const outcomes = await Promise.all(emails.map((email) => attempt(email, "wrong password", address)));
    expect(tally(outcomes)).toEqual({ wrong: 20, refused: 5 });
    expect(checks).toHaveBeenCalledTimes(20);
  });

  it("does not lock the owner out when strangers send wrong passwords for their email", async () => {
    const user = await makeCheapUser("REVIEWER");
    const stranger = someAddress();
    const outcomes = await Promise.all(
      Array.from({ length: 15 }, () => attempt(user.email, "a guessed password", stranger)),
    );
    expect(tally(outcomes)).toEqual({ wrong: 10, refused: 5 });
    expect(await attempt(user.email, "correct horse battery", someAddress())).toBe("ok");
    expect(checks).toHaveBeenCalledTimes(11);
  });

  it("gives back the attempt of a successful sign-in, so one office address is not locked out", async () => {
    const user = await makeCheapUser("ANNOTATOR");
    const office = someAddress();
    for (let i = 0; i < 21; i++) expect(await attempt(user.email, "correct horse battery", office)).toBe("ok");
    expect(checks).toHaveBeenCalledTimes(21);
  });
});

/** A clock the test moves by hand: the limits read `now`, and a slow-down only records its wait. */
function manualClock() {
  // In the future, so no pruning of "full" buckets by the real clock can touch the test's buckets.
  let now = Date.now() + 3600_000;
  const waits: number[] = [];
  return {
    waits,
    advance: (ms: number) => {
      now += ms;
    },
    clock: { now: () => new Date(now), sleep: async (ms: number) => void waits.push(ms) },
  };
}

/** One attempt straight through signInWithPassword, on a clock the test controls. */
async function attemptAt(
  clock: SignInClock,
  email: string,
  password: string,
  address: string,
): Promise<"ok" | "wrong" | "refused"> {
  try {
    return (await signInWithPassword({ email, password, address, clock })) ? "ok" : "wrong";
  } catch (error) {
    expect((error as Error).message).toMatch(/Too many/);
    return "refused";
  }
}

describe("strangers cannot lock the owner out", () => {
  it("takes the owner's right password from a clean address every time while three addresses guess every 2 s", async () => {
    const user = await makeCheapUser("ADMIN");
    const strangers = [someAddress(), someAddress(), someAddress()];
    const owner = someAddress();
    const time = manualClock();
    const strangerOutcomes: string[] = [];
    const ownerOutcomes: string[] = [];
    for (let step = 1; step <= 25; step++) {
      const guesses = strangers.map((stranger) => attemptAt(time.clock, user.email, "a guessed password", stranger));
      strangerOutcomes.push(...(await Promise.all(guesses)));
      if (step % 3 === 0) {
        const waitsBefore = time.waits.length;
        ownerOutcomes.push(await attemptAt(time.clock, user.email, "correct horse battery", owner));
        expect(time.waits.length, "the owner waited").toBe(waitsBefore);
      }
      time.advance(2000);
    }
    expect(ownerOutcomes).toEqual(Array(8).fill("ok"));
    // The strangers were slowed and then refused: each address's own budget ran out.
    expect(tally(strangerOutcomes).refused).toBeGreaterThan(20);
    expect(time.waits.length).toBeGreaterThan(0);
    // A refused guess checked no password.
    expect(checks).toHaveBeenCalledTimes(tally(strangerOutcomes).wrong + ownerOutcomes.length);
  });

  it("slows down and then refuses guesses from addresses that used up their standing with the account", async () => {
    const user = await makeCheapUser("REVIEWER");
    const addresses = Array.from({ length: 8 }, someAddress);
    const time = manualClock();
    const guessFromEach = () =>
      Promise.all(addresses.map((address) => attemptAt(time.clock, user.email, "guess", address)));
    // Each address's first three wrong passwords are in good standing: answered at once.
    for (let i = 0; i < 3; i++) expect(await guessFromEach()).toEqual(addresses.map(() => "wrong"));
    expect(time.waits).toEqual([]);
    // Those 24 wrong passwords drew the account's budget (20, then 6 s slots) past its 12 s slow-down.
    expect(tally(await guessFromEach())).toEqual({ refused: 8 });
    // 12 s later it has refilled by two: the next attempt from a spent address waits for a 6 s slot.
    time.advance(12_000);
    expect(await attemptAt(time.clock, user.email, "guess", addresses[0])).toBe("wrong");
    expect(time.waits).toHaveLength(1);
    expect(time.waits[0]).toBeCloseTo(6000, -2);
    // The owner, from an address that never failed, is not made to wait.
    expect(await attemptAt(time.clock, user.email, "correct horse battery", someAddress())).toBe("ok");
    expect(time.waits).toHaveLength(1);
    expect(checks).toHaveBeenCalledTimes(24 + 1 + 1);
  });

  it("counts an IPv6 /64 as one address", async () => {
    const time = manualClock();
    const group = () => Math.floor(Math.random() * 0xffff).toString(16);
    const network = `2001:db8:${group()}:${group()}`;
    // Each address of the /64 tries its own account (22 accounts, 3 emails of nobody's).
    const accounts = await Promise.all(Array.from({ length: 22 }, () => makeCheapUser("ANNOTATOR")));
    const emails = [...accounts.map((account) => account.email), ...Array.from({ length: 3 }, unknownEmail)];
    const outcomes = await Promise.all(
      emails.map((email, i) => attemptAt(time.clock, email, "wrong password", `${network}:${i + 1}::${i}`)),
    );
    expect(tally(outcomes)).toEqual({ wrong: 20, refused: 5 });
    expect(checks).toHaveBeenCalledTimes(20);
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
