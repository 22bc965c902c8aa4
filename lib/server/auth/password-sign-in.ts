import "server-only";

import { setTimeout as sleep } from "node:timers/promises";

import { type RateTake, takeRateBudgets } from "@/lib/server/rate-limits/buckets";
import { normalizeEmail, verifyPassword } from "@/lib/server/users/users";
import { createRateLimiter, refundAll, takeAll } from "@/lib/server/rate-limits/rate-limit";

import { addressBucket } from "./client-address";
import type { Actor } from "./permissions";

// Budgets kept in PostgreSQL (shared by every app instance), taken before the password is hashed
// (so simultaneous attempts cannot all pass one check) and given back when the password is right
// (so successes cost nothing). An IPv6 client counts by its /64 (addressBucket).
// - per client address: bounds the hashing one client can cause, whatever emails it tries;
// - per account and address: a stranger's wrong guesses use up their own budget, not the owner's;
// - good standing of an address with an account: its first few wrong passwords in an hour. While
//   it lasts, the address's attempts skip the account-wide budget, so the owner signing in from an
//   address that has not misbehaved is never refused because strangers guess elsewhere;
// - per account from everywhere: wrong passwords from anywhere draw on it, and attempts from an
//   address that used up its standing wait for a slot (a slow-down, not a lock-out), which bounds
//   guessing one account to 10 a minute beyond each address's first three.
const perAddress = createRateLimiter({ name: "sign-in:address", capacity: 20, perMinute: 10 });
const perAccountAndAddress = createRateLimiter({ name: "sign-in:account-address", capacity: 10, perMinute: 5 });
const goodStanding = createRateLimiter({ name: "sign-in:good-standing", capacity: 3, perMinute: 3 / 60 });
const perAccount = createRateLimiter({ name: "sign-in:account", capacity: 20, perMinute: 10 });
const LONGEST_SLOW_DOWN_MS = 12_000;

/** Time as the sign-in limits see it: the database's clock and a real wait, unless a test controls both. */
export type SignInClock = { now(): Date | undefined; sleep(ms: number): Promise<void> };
const realClock: SignInClock = { now: () => undefined, sleep: (ms) => sleep(ms) };

/** The budgets every attempt takes before hashing (exported for the test of two instances sharing them). */
export function signInBudgets(account: string, address: string): RateTake[] {
  const client = addressBucket(address);
  return [perAddress.budget(client), perAccountAndAddress.budget(`${account} ${client}`)];
}

/**
 * Checks an email and password for a sign-in from `address`. Returns the actor, or null for a
 * wrong email or password; throws RATE_LIMITED when a budget is spent (nothing is hashed then).
 */
export async function signInWithPassword({
  email,
  password,
  address,
  clock = realClock,
}: {
  email: string;
  password: string;
  address: string;
  clock?: SignInClock;
}): Promise<Actor | null> {
  const account = normalizeEmail(email);
  const own = signInBudgets(account, address);
  await takeAll(own, clock.now());
  const standing = goodStanding.budget(`${account} ${addressBucket(address)}`);
  const isInGoodStanding = (await takeRateBudgets([standing], clock.now() ?? null)).isTaken;
  const accountWide = perAccount.budget(account, LONGEST_SLOW_DOWN_MS);
  if (!isInGoodStanding) {
    const waitMs = await takeAll([accountWide], clock.now());
    if (waitMs > 0) await clock.sleep(waitMs);
  }
  const actor = await verifyPassword({ email: account, password });
  if (actor) {
    await refundAll([...own, isInGoodStanding ? standing : accountWide], clock.now());
    return actor;
  }
  // A wrong password from an address in good standing still counts against the account, so the
  // addresses that have used up their standing wait longer; a full budget refuses nothing here.
  if (isInGoodStanding) await takeRateBudgets([accountWide], clock.now() ?? null);
  return null;
}
