import "server-only";

import { setTimeout as sleep } from "node:timers/promises";

import { type RateTake, takeRateBudgets } from "@/lib/server/rate-limits/buckets";
import { normalizeEmail, verifyPassword } from "@/lib/server/users/users";
import { createRateLimiter, refundAll, takeAll } from "@/lib/server/rate-limits/rate-limit";

import { AppError } from "@/lib/server/errors";

import { addressBucket } from "./client-address";
import { HasherBusyError } from "./password-hasher";
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

// Who signed in from where: an account and address (its /64 for IPv6) with a right password in the
// last 30 days has its password checked ahead of everyone else's (password-hasher.ts), so strangers'
// guesses, each within its own budgets, never queue ahead of the owner. Kept by this process (a
// restart forgets it; the owner's next sign-in is then checked in the common line once).
const KNOWN_FOR_MS = 30 * 24 * 60 * 60_000;
const MAX_KNOWN = 50_000;
const globalForSignIn = globalThis as unknown as { verityKnownSignIns?: Map<string, number> };
const knownSignIns = (globalForSignIn.verityKnownSignIns ??= new Map<string, number>());

function isKnownSignIn(key: string, now: number): boolean {
  const at = knownSignIns.get(key);
  return at !== undefined && now - at < KNOWN_FOR_MS;
}

function rememberSignIn(key: string, now: number): void {
  knownSignIns.delete(key);
  knownSignIns.set(key, now);
  // A Map iterates in insertion order: the first key is the oldest sign-in.
  if (knownSignIns.size > MAX_KNOWN) knownSignIns.delete(knownSignIns.keys().next().value!);
}

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
 * wrong email or password; throws RATE_LIMITED when a budget is spent or the line of passwords
 * waiting to be checked is full (nothing is hashed then). A person who signed in from this address
 * before is checked ahead of the line.
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
  const pair = `${account} ${addressBucket(address)}`;
  let actor: Actor | null;
  try {
    actor = await verifyPassword({
      email: account,
      password,
      priority: isKnownSignIn(pair, Date.now()) ? "known" : "other",
    });
  } catch (error) {
    if (!(error instanceof HasherBusyError)) throw error;
    // Refused before any hash: the attempt costs its budgets nothing.
    await refundAll([...own, isInGoodStanding ? standing : accountWide], clock.now());
    throw new AppError("RATE_LIMITED", "Too many sign-ins are being checked right now; try again in a moment.");
  }
  if (actor) {
    rememberSignIn(pair, Date.now());
    await refundAll([...own, isInGoodStanding ? standing : accountWide], clock.now());
    return actor;
  }
  // A wrong password from an address in good standing still counts against the account, so the
  // addresses that have used up their standing wait longer; a full budget refuses nothing here.
  if (isInGoodStanding) await takeRateBudgets([accountWide], clock.now() ?? null);
  return null;
}
