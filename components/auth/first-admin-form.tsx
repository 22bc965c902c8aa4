"use client";

import type { z } from "zod";

import { Button, ErrorNote, Field, Input } from "@/components/ui/primitives";
import type { Action } from "@/lib/actions/result";
import { firstAdminSchema } from "@/lib/validation/auth";

import { NewPasswordField, useNewAccount } from "./new-account";

const SETUP_CODE_HINT =
  "Printed in the console where Verity was started, so only its operator can create this account.";

export function FirstAdminForm({
  createFirstAdmin,
}: {
  createFirstAdmin: Action<z.input<typeof firstAdminSchema>, unknown>;
}) {
  const { create, isPending, message: error, fieldErrors } = useNewAccount();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = {
      email: String(form.get("email")),
      name: String(form.get("name") ?? ""),
      password: String(form.get("password")),
      setupCode: String(form.get("setupCode")),
    };
    await create(firstAdminSchema, input, createFirstAdmin, input);
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4">
      <div>
        <h2 className="text-lg font-semibold">Create the first admin</h2>
        <p className="mt-1 text-sm text-slate-600">
          Verity has no users yet. The first account administers it: it imports datasets and invites the team.
        </p>
      </div>
      <Field label="Setup code" htmlFor="setupCode" error={fieldErrors.setupCode?.[0]} hint={SETUP_CODE_HINT}>
        <Input
          id="setupCode"
          name="setupCode"
          autoComplete="off"
          spellCheck={false}
          required
          autoFocus
          className="font-mono"
        />
      </Field>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <Field label="Email" htmlFor="email" error={fieldErrors.email?.[0]}>
        <Input id="email" name="email" type="email" autoComplete="email" required />
      </Field>
      <Field label="Name" htmlFor="name" error={fieldErrors.name?.[0]}>
        <Input id="name" name="name" autoComplete="name" />
      </Field>
      <NewPasswordField error={fieldErrors.password?.[0]} />
      <Button type="submit" className="w-full" disabled={isPending}>
        {isPending ? "Creating…" : "Create admin account"}
      </Button>
    </form>
  );
}
