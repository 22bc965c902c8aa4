"use client";

import { useRouter } from "next/navigation";
import type { z } from "zod";

import { Button, ErrorNote, Field, Input } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { firstAdminSchema } from "@/lib/validation/auth";

import { signInWithPassword } from "./sign-in";

export function FirstAdminForm({
  createFirstAdmin,
}: {
  createFirstAdmin: Action<z.input<typeof firstAdminSchema>, unknown>;
}) {
  const router = useRouter();
  const { run, submit, isPending, message: error, fieldErrors } = useAction();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = {
      email: String(form.get("email")),
      name: String(form.get("name") ?? ""),
      password: String(form.get("password")),
      setupCode: String(form.get("setupCode")),
    };
    if (!(await submit(firstAdminSchema, input, createFirstAdmin)).ok) return;
    await run(() => signInWithPassword(input.email, input.password));
    router.push("/datasets");
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4">
      <div>
        <h2 className="text-lg font-semibold">Create the first admin</h2>
        <p className="mt-1 text-sm text-slate-600">
          Verity has no users yet. The first account administers it: it imports datasets and invites the team.
        </p>
      </div>
      <Field
        label="Setup code"
        htmlFor="setupCode"
        error={fieldErrors.setupCode?.[0]}
        hint="Printed in the console where Verity was started, so only its operator can create this account."
      >
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
      <Field
        label="Password"
        htmlFor="password"
        error={fieldErrors.password?.[0]}
        hint="At least 10 characters, at most 72 bytes."
      >
        <Input id="password" name="password" type="password" autoComplete="new-password" required minLength={10} />
      </Field>
      <Button type="submit" className="w-full" disabled={isPending}>
        {isPending ? "Creating…" : "Create admin account"}
      </Button>
    </form>
  );
}
