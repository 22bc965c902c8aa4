"use client";

import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";

import { Button, ErrorNote, Field, Input } from "@/components/ui/primitives";
import type { Action } from "@/lib/server/action";

export function AcceptInvitationForm({
  token,
  email,
  acceptInvitation,
}: {
  token: string;
  email: string;
  acceptInvitation: Action<{ token: string; name: string; password: string }, unknown>;
}) {
  const router = useRouter();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [error, setError] = useState<string>();
  const [isPending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password"));
    setPending(true);
    const result = await acceptInvitation({ token, name: String(form.get("name") ?? ""), password });
    if (!result.ok) {
      setPending(false);
      setError(result.message);
      setFieldErrors(result.fieldErrors ?? {});
      return;
    }
    await signIn("credentials", { email, password, redirect: false });
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
