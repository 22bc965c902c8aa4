// Small factories for integration tests: each test makes its own rows with unique names.
import { randomUUID } from "node:crypto";

import type { Role } from "@/lib/generated/prisma/enums";
import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { hashPassword, upsertUserFromCli } from "@/lib/server/users/users";

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** Every test user's password. */
const TEST_PASSWORD = "correct horse battery";

// Its bcrypt hash, made by the product's own hasher (cost 12) once per test process rather than once
// per user: a test user is then a few rows, not a quarter of a second or more of hashing each.
// auth.int.test.ts proves that the product hashes every password it stores at cost 12.
let testPasswordHash: Promise<string> | undefined;

/** A new user with the role and languages, whose password is TEST_PASSWORD. */
export async function makeUser(role: Role, languages: string[] = []): Promise<Actor> {
  testPasswordHash ??= hashPassword(TEST_PASSWORD);
  const { actor } = await upsertUserFromCli({
    actor: SYSTEM_ACTOR.cli,
    email: `${uniqueName(role.toLowerCase())}@example.test`,
    role,
    languages,
  });
  await prisma().user.update({ where: { id: actor.id }, data: { passwordHash: await testPasswordHash } });
  return actor;
}

/**
 * Hands a chosen item to a user as the queue would (an active lease taking one slot), for tests
 * that need particular items labelled: a label is accepted only from the item's holder.
 */
export async function holdItem({ userId, itemId }: { userId: string; itemId: string }): Promise<void> {
  await prisma().$transaction([
    prisma().assignment.create({ data: { itemId, userId, leaseExpiresAt: new Date(Date.now() + 30 * 60_000) } }),
    prisma().campaignItem.update({ where: { id: itemId }, data: { slotsTaken: { increment: 1 } } }),
  ]);
}

/** A valid AutoCodeBench-style record; `seed` makes its content (and so its hash) unique. */
export function makeRecord(seed: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    question: `Write \`add_${seed}(a, b)\` in Python that returns the sum.`,
    canonical_solution: `def add_${seed}(a, b):\n    return a + b\n`,
    demo_test_func: `def test():\n    assert add_${seed}(1, 2) == 3\n\ntest()\n`,
    full_test_func: `def test():\n    assert add_${seed}(-1, 1) == 0\n\ntest()\n`,
    language: "python",
    difficulty: "easy",
    ...overrides,
  };
}

export function toJsonl(records: unknown[]): string {
  return records.map((record) => JSON.stringify(record)).join("\n") + "\n";
}

export async function* chunks(text: string): AsyncGenerator<string> {
  yield text;
}

/**
 * An open campaign (overlap 1, majority) over every record of a dataset, each item labelled valid by
 * one new annotator of `languages`: what reports, exports and releases need to have labels to show.
 * Returns the campaign's id.
 */
export async function labelDatasetValid({
  admin,
  dataset,
  languages,
}: {
  admin: Actor;
  dataset: string;
  languages: string[];
}): Promise<string> {
  const annotator = await makeUser("ANNOTATOR", languages);
  const { id: campaignId } = await createCampaign({
    actor: admin,
    input: {
      dataset,
      name: uniqueName(`${dataset}-labels`),
      overlap: 1,
      agreementFraction: 0,
      blind: false,
      finalRule: "majority",
      leaseMinutes: 30,
    },
  });
  for (const item of await prisma().campaignItem.findMany({ where: { campaignId }, select: { id: true } })) {
    // A label is accepted only from the item's holder.
    await holdItem({ userId: annotator.id, itemId: item.id });
    await submitAnnotation({
      actor: annotator,
      itemId: item.id,
      input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 10_000 },
    });
  }
  return campaignId;
}
