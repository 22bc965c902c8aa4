import "server-only";

import { Prisma } from "@/lib/generated/prisma/client";

const BLOCK = 64;

/**
 * SQL for HMAC-SHA256(key, text) as a bytea, built on PostgreSQL's own sha256 (no extension needed):
 * ordering by it gives an order nobody without the key can predict. The key is at most 64 bytes.
 */
export function hmacSql(key: Buffer, text: Prisma.Sql): Prisma.Sql {
  const block = Buffer.alloc(BLOCK);
  key.copy(block);
  const inner = Buffer.from(block.map((byte) => byte ^ 0x36));
  const outer = Buffer.from(block.map((byte) => byte ^ 0x5c));
  return Prisma.sql`sha256(${outer}::bytea || sha256(${inner}::bytea || convert_to(${text}, 'UTF8')))`;
}
