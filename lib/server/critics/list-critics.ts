import "server-only";

import type { Prisma } from "@/lib/generated/prisma/client";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, type SystemActor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { IMPORTED_CRITIC, type CriticVersionRow, versionSelect } from "@/lib/server/critics/queries";

/** A critic as admins see it: never the key itself, only where it comes from. */
export type CriticRow = {
  id: string;
  name: string;
  kind: "ENDPOINT" | "IMPORTED";
  baseUrl: string;
  apiKeyEnv: string | null;
  hasStoredKey: boolean;
  concurrency: number;
  timeoutMs: number;
  createdAt: Date;
  versions: CriticVersionRow[];
};

const criticSelect = {
  id: true,
  name: true,
  baseUrl: true,
  apiKeyEnv: true,
  apiKeySealed: true,
  concurrency: true,
  timeoutMs: true,
  createdAt: true,
  versions: { select: versionSelect, orderBy: { number: "desc" } },
} satisfies Prisma.CriticSelect;

function toCriticRow({ apiKeySealed, ...row }: Prisma.CriticGetPayload<{ select: typeof criticSelect }>): CriticRow {
  return { ...row, kind: "ENDPOINT", hasStoredKey: apiKeySealed !== null };
}

const IMPORTED_ROW: CriticRow = {
  id: IMPORTED_CRITIC.criticId,
  name: IMPORTED_CRITIC.name,
  kind: "IMPORTED",
  baseUrl: "",
  apiKeyEnv: null,
  hasStoredKey: false,
  concurrency: 0,
  timeoutMs: 0,
  createdAt: new Date(0),
  versions: [
    {
      id: IMPORTED_CRITIC.versionId,
      number: 1,
      model: "",
      temperature: 0,
      maxTokens: 0,
      template: "",
      usedAt: new Date(0),
      createdAt: new Date(0),
    },
  ],
};

/** Every critic with its versions, newest version first; the built-in "imported" last. Scope: critics:read. */
export async function listCritics({ actor }: { actor: Actor | SystemActor }): Promise<CriticRow[]> {
  assertCan(actor, "critics:read");
  // Critics are configurations an admin types in: a handful, so one page holds them all.
  const rows = await prisma().critic.findMany({
    select: criticSelect,
    orderBy: { name: "asc" },
    take: 500,
  });
  return [...rows.map(toCriticRow), IMPORTED_ROW];
}
