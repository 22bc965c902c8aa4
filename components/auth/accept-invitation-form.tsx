"use client";

import type { z } from "zod";

import { Button, ErrorNote, Field, Input } from "@/components/ui/primitives";
import type { Action } from "@/lib/actions/result";
import { acceptInvitationSchema } from "@/lib/validation/auth";

import { NewPasswordField, useNewAccount } from "./new-account";

export function AcceptInvitationForm({
  token,
  email,
  acceptInvitation,
}: {
  token: string;
  email: string;
  acceptInvitation: Action<z.input<typeof acceptInvitationSchema>, unknown>;
}) {
  const { create, isPending, message: error, fieldErrors } = useNewAccount();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password"));
    const input = { token, name: String(form.get("name") ?? ""), password };
    await create(acceptInvitationSchema, input, acceptInvitation, { email, password });
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4">
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <Field label="Your name" htmlFor="name" error={fieldErrors.name?.[0]}>
        <Input id="name" name="name" autoComplete="name" autoFocus />
      </Field>
      <NewPasswordField error={fieldErrors.password?.[0]} />
      <Button type="submit" className="w-full" disabled={isPending}>
        {isPending ? "Creating your account…" : "Create account"}
      </Button>
    </form>
  );
}
