import "server-only";

import { PrismaPg } from "@prisma/adapter-pg";

import { PrismaClient } from "@/lib/generated/prisma/client";

import type { RateTake } from "@/lib/server/rate-limits/buckets";

/**
 * What a second app instance holds, for tests: its own connection pool to the same database,
 * taking rate budgets as its limiters would. Close it when done.
 */
export function anotherInstance() {
  const client = new PrismaClient({
    adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL as string, max: 10 }),
  });
  return {
    /** Takes one token from each budget, all or none, as verity_take_rate_budgets does; true when taken. */
    async take(takes: readonly RateTake[]): Promise<boolean> {
      const [row] = await client.$queryRaw<{ refused: number }[]>`
        SELECT refused FROM verity_take_rate_budgets(${takes.map((t) => t.key)}::text[], ${takes.map((t) => t.capacity)}::float8[],
          ${takes.map((t) => t.perMinute)}::float8[], ${takes.map((t) => t.maxWaitMs)}::float8[], NULL)`;
      return row.refused === 0;
    },
    close: () => client.$disconnect(),
  };
}
