// Prisma CLI configuration. The app itself never reads this file: at run time it connects through
// `@prisma/adapter-pg` and applies migrations with the offline engine (lib/server/db/migrate.ts).
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://verity@localhost:54329/verity" },
});
