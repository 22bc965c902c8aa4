import type { Command } from "commander";

import { normalizeLanguage } from "@/lib/records";
import { ROLES, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { createApiToken } from "@/lib/server/users/tokens";
import { findActorByEmail, upsertUserFromCli } from "@/lib/server/users/users";
import type { Role } from "@/lib/generated/prisma/enums";
import { passwordSchema } from "@/lib/validation/auth";

import { endCommand } from "./exit";
import { usageError, withDatabase } from "./with-database";

function parseLanguages(list: string | undefined): string[] {
  if (!list) return [];
  return list
    .split(",")
    .filter(Boolean)
    .map((name) => normalizeLanguage(name) ?? usageError(`unknown language "${name}"`));
}

/** Registers `verity users add` and `verity tokens create` for operators with shell access. */
export function registerUserCommands(program: Command): void {
  const users = program.command("users").description("Manage users from the server's shell.");
  users
    .command("add")
    .requiredOption("--email <email>", "the person's email")
    .requiredOption("--role <role>", "ADMIN, REVIEWER or ANNOTATOR")
    .option("--languages <list>", "comma-separated languages they know, e.g. python,cpp")
    .option(
      "--password <password>",
      "sets a password (otherwise they sign in with GitHub/OIDC or get one via an invitation)",
    )
    .description("Create a user, or update an existing one's role and languages.")
    .action(async (options: { email: string; role: string; languages?: string; password?: string }) => {
      const role = options.role.toUpperCase();
      if (!ROLES.includes(role as Role)) usageError(`--role must be one of ${ROLES.join(", ")}`);
      if (!/^[^@\s]+@[^@\s]+$/.test(options.email)) usageError("--email must be an email address");
      if (options.password !== undefined) {
        const password = passwordSchema.safeParse(options.password);
        if (!password.success) usageError(`--password: ${password.error.issues[0].message}`);
      }
      const languages = parseLanguages(options.languages);
      const { actor, created } = await withDatabase(() =>
        upsertUserFromCli({
          actor: SYSTEM_ACTOR.cli,
          email: options.email,
          role: role as Role,
          languages,
          password: options.password,
        }),
      );
      console.log(
        `${created ? "Created" : "Updated"} ${actor.email} (${actor.role}${actor.languages.length ? `; ${actor.languages.join(", ")}` : ""}).`,
      );
    });

  program
    .command("tokens")
    .description("Manage personal API tokens.")
    .command("create")
    .requiredOption("--email <email>", "the token's owner; it acts with their role")
    .option("--name <name>", "a label to recognise the token by", "cli")
    .description("Create an API token and print it (only the token, so scripts can capture it).")
    .action(async (options: { email: string; name: string }) => {
      const token = await withDatabase(async () => {
        const owner = await findActorByEmail(options.email);
        if (!owner) {
          console.error(`error: no active user with email ${options.email}`);
          return null;
        }
        return (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: owner.id, name: options.name })).token;
      });
      if (!token) endCommand(1);
      console.log(token);
    });
}
