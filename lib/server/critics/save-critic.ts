import "server-only";

import { DEFAULT_CRITIC_TEMPLATE } from "@/lib/critics/template";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, personIdOf, type SystemActor } from "@/lib/server/auth/permissions";
import { sealSecret } from "@/lib/server/auth/secrets";
import { AppError } from "@/lib/server/errors";
import type { SaveCriticInput } from "@/lib/validation/critics";
import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";
import { isImportedName, versionSelect } from "@/lib/server/critics/queries";

export type SavedCritic = {
  criticId: string;
  name: string;
  version: number;
  createdCritic: boolean;
  createdVersion: boolean;
};

function isSameOrigin(first: string, second: string): boolean {
  return new URL(first).origin === new URL(second).origin;
}

/**
 * Creates a critic, or updates the one of that name: its endpoint settings change in place; its
 * prompt version (model, temperature, max tokens, template) changes in place while no run used it,
 * and otherwise becomes a new version, so every stored verdict keeps the version that made it. A
 * stored key stays with its origin: moving the base URL to another one needs the key again (or
 * drops it when the critic now names a key variable). Scope: critics:admin.
 */
export async function saveCritic({
  actor,
  input,
}: {
  actor: Actor | SystemActor;
  input: SaveCriticInput;
}): Promise<SavedCritic> {
  assertCan(actor, "critics:admin");
  if (isImportedName(input.name))
    throw new AppError("CONFLICT", `"${input.name}" is the built-in critic of the record files.`);
  const sealed = input.apiKey && input.apiKey.trim() !== "" ? sealSecret(input.apiKey.trim()) : undefined;
  const promptOf = (latestTemplate: string | undefined) => ({
    model: input.model,
    temperature: input.temperature,
    maxTokens: input.maxTokens,
    // No template given: keep the critic's own, else Verity's default.
    template: input.template ?? latestTemplate ?? DEFAULT_CRITIC_TEMPLATE,
  });
  return prisma().$transaction(async (tx) => {
    const existing = await tx.critic.findUnique({
      where: { name: input.name },
      select: {
        id: true,
        baseUrl: true,
        apiKeySealed: true,
        versions: { select: versionSelect, orderBy: { number: "desc" }, take: 1 },
      },
    });
    // A stored key was typed for one origin: it never follows the critic to another one.
    const isKeyStranded = existing?.apiKeySealed != null && !sealed && !isSameOrigin(existing.baseUrl, input.baseUrl);
    if (isKeyStranded && !input.apiKeyEnv)
      throw new AppError("INVALID_INPUT", "The base URL now points at another host: enter its API key again.", {
        apiKey: ["The stored key was given for another host; type the key again for this one."],
      });
    const endpoint = {
      baseUrl: input.baseUrl,
      apiKeyEnv: input.apiKeyEnv ?? null,
      concurrency: input.concurrency,
      timeoutMs: input.timeoutMs,
      ...(sealed ? { apiKeySealed: sealed } : isKeyStranded ? { apiKeySealed: null } : {}),
    };
    let saved: SavedCritic;
    const prompt = promptOf(existing?.versions[0]?.template);
    if (!existing) {
      const critic = await tx.critic.create({
        data: {
          name: input.name,
          ...endpoint,
          createdById: personIdOf(actor),
          versions: { create: { number: 1, ...prompt, createdById: personIdOf(actor) } },
        },
        select: { id: true },
      });
      saved = { criticId: critic.id, name: input.name, version: 1, createdCritic: true, createdVersion: true };
    } else {
      await tx.critic.update({ where: { id: existing.id }, data: endpoint });
      const latest = existing.versions[0];
      const same =
        latest &&
        latest.model === prompt.model &&
        latest.temperature === prompt.temperature &&
        latest.maxTokens === prompt.maxTokens &&
        latest.template === prompt.template;
      // The same version, as it is or edited in place.
      const kept = { criticId: existing.id, name: input.name, createdCritic: false, createdVersion: false };
      if (same) {
        saved = { ...kept, version: latest.number };
      } else if (latest && latest.usedAt === null) {
        // Nothing was judged with it yet: editing it changes no stored verdict.
        const updated = await tx.criticVersion.updateMany({ where: { id: latest.id, usedAt: null }, data: prompt });
        if (updated.count === 0)
          throw new AppError("CONFLICT", "A run started with this version just now; save again.");
        saved = { ...kept, version: latest.number };
      } else {
        const number = (latest?.number ?? 0) + 1;
        await tx.criticVersion.create({
          data: { criticId: existing.id, number, ...prompt, createdById: personIdOf(actor) },
        });
        saved = {
          criticId: existing.id,
          name: input.name,
          version: number,
          createdCritic: false,
          createdVersion: true,
        };
      }
    }
    await writeAudit(tx, {
      actorId: personIdOf(actor),
      action: existing ? "critic.update" : "critic.create",
      targetType: "Critic",
      targetId: saved.criticId,
      // Where the key comes from, never the key.
      after: {
        name: input.name,
        baseUrl: input.baseUrl,
        model: input.model,
        version: saved.version,
        apiKeyEnv: input.apiKeyEnv ?? null,
        storedKey: Boolean(sealed),
      },
    });
    return saved;
  });
}
