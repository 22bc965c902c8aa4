// One or two threads hash passwords for everyone. Strangers sending wrong passwords from many
// addresses (each within its own budget) must not make the owner wait behind their hashes, nor be
// refused: a person who signed in from an address before goes ahead of the line, and past a bound
// the line refuses newcomers at once instead of growing. Counted in hashes done, not in seconds.
import { describe, expect, it } from "vitest";

import "@/scripts/stamp-peer-address.mjs";
import { makeUser, uniqueName } from "@/lib/testing/factories";
import { isSystemPostgresRun, NOT_ABOUT_POSTGRES } from "@/lib/testing/test-postgres";

import { signInWithPassword } from "./password-sign-in";

const STRANGERS = 60;
const someAddress = (index: number) => `198.51.100.${(index % 250) + 1}-${uniqueName("q")}`;

type Outcome = "ok" | "wrong" | "refused";
async function attempt(email: string, password: string, address: string): Promise<Outcome> {
  try {
    return (await signInWithPassword({ email, password, address })) ? "ok" : "wrong";
  } catch (error) {
    expect((error as Error).message).toMatch(/Too many|busy/);
    return "refused";
  }
}

describe.skipIf(isSystemPostgresRun)(`the password line under strangers' load${NOT_ABOUT_POSTGRES}`, () => {
  it("lets the owner, from an address they signed in from, past every stranger's hash still waiting", async () => {
    const owner = await makeUser("ADMIN");
    const home = someAddress(999);
    expect(await attempt(owner.email, "correct horse battery", home)).toBe("ok");

    const finished: { who: "owner" | "stranger"; outcome: Outcome }[] = [];
    const strangers = Array.from({ length: STRANGERS }, (_, index) =>
      attempt(`${uniqueName("nobody")}@example.test`, "a guess", someAddress(index)).then((outcome) => {
        finished.push({ who: "stranger", outcome });
        return outcome;
      }),
    );
    // The strangers' checks are in line (their budgets taken) before the owner asks.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const ownerOutcome = await attempt(owner.email, "correct horse battery", home).then((outcome) => {
      finished.push({ who: "owner", outcome });
      return outcome;
    });
    const outcomes = await Promise.all(strangers);

    expect(ownerOutcome).toBe("ok");
    // Hashes of strangers finished while the owner waited: at most those already running, one per
    // hashing thread (2), plus those that finished in the 1.5 s before the owner asked.
    const ownerAt = finished.findIndex((entry) => entry.who === "owner");
    const hashedBefore = finished.slice(0, ownerAt).filter((entry) => entry.outcome === "wrong").length;
    const hashedAfter = finished.slice(ownerAt + 1).filter((entry) => entry.outcome === "wrong").length;
    expect(hashedAfter, "strangers' hashes still waiting when the owner asked").toBeGreaterThan(0);
    expect(hashedBefore).toBeLessThan(STRANGERS / 3);
    // The line is bounded: some strangers were refused at once, without a hash.
    const counts = outcomes.reduce<Record<string, number>>((all, o) => ({ ...all, [o]: (all[o] ?? 0) + 1 }), {});
    expect(counts.refused ?? 0, JSON.stringify(counts)).toBeGreaterThan(0);
    expect(counts.wrong ?? 0).toBeLessThanOrEqual(34);
  }, 240_000);
});
