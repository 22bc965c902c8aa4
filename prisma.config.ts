// Prisma CLI configuration. The app itself never reads this file: at run time it connects through
// `@prisma/adapter-pg` and applies migrations with the offline engine (lib/server/db/migrate.ts).
// There is no default URL: the embedded PostgreSQL has random passwords and only a unix socket
// (see the README), so Prisma's CLI needs DATABASE_URL for the commands that reach a database.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL },
});
