// The SQL HMAC that keys the queue's orders matches Node's HMAC-SHA256.
import { createHmac, randomBytes } from "node:crypto";

import { describe, expect, it } from "vitest";

import { Prisma } from "@/lib/generated/prisma/client";

import { prisma } from "@/lib/server/db/client";
import { hmacSql } from "@/lib/server/labelling/keyed-order";

describe("hmacSql", () => {
  it("computes HMAC-SHA256 in PostgreSQL exactly as Node does", async () => {
    const key = randomBytes(32);
    for (const text of ["", "record-key", "ünïcode ✓", "x".repeat(500)]) {
      const [row] = await prisma().$queryRaw<
        { mac: Uint8Array }[]
      >`SELECT ${hmacSql(key, Prisma.sql`${text}::text`)} AS mac`;
      expect(Buffer.from(row.mac).toString("hex"), text).toBe(createHmac("sha256", key).update(text).digest("hex"));
    }
  });
});
