"use client";

import { useRouter } from "next/navigation";
import type { z } from "zod";

import { Button, ErrorNote, Field, Input } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { acceptInvitationSchema } from "@/lib/validation/auth";

import { signInWithPassword } from "./sign-in";

export function AcceptInvitationForm({
  token,
  email,
  acceptInvitation,
}: {
  token: string;
  email: string;
  acceptInvitation: Action<z.input<typeof acceptInvitationSchema>, unknown>;
}) {
  const router = useRouter();
  const { run, submit, isPending, message: error, fieldErrors } = useAction();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password"));
    const input = { token, name: String(form.get("name") ?? ""), password };
    if (!(await submit(acceptInvitationSchema, input, acceptInvitation)).ok) return;
    await run(() => signInWithPassword(email, password));
    router.push("/datasets");
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4">
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <Field label="Your name" htmlFor="name" error={fieldErrors.name?.[0]}>
        <Input id="name" name="name" autoComplete="name" autoFocus />
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
        {isPending ? "Creating your account…" : "Create account"}
      </Button>
    </form>
  );
}
