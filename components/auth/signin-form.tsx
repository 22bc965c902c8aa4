"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";

import { Button, ErrorNote, Field, Input } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { safeCallbackPath } from "@/lib/validation/callback-path";

import { signInWithPassword } from "./sign-in";

export function SignInForm({
  callbackUrl,
  external,
  initialError,
}: {
  callbackUrl: string;
  external: { id: string; name: string }[];
  initialError?: string;
}) {
  const router = useRouter();
  const { run, isPending, message: error } = useAction({ message: initialError });
  const [isLeaving, setLeaving] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = await run(() => signInWithPassword(String(form.get("email")), String(form.get("password"))));
    if (!result.ok) return;
    // Checked again here: the prop is the only thing between a crafted link and a redirect.
    setLeaving(true);
    router.push(safeCallbackPath(callbackUrl));
    router.refresh();
  }

  return (
    <div className="space-y-5">
      <h2 className="text-lg font-semibold">Sign in</h2>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <form onSubmit={onSubmit} className="space-y-4">
        <Field label="Email" htmlFor="email">
          <Input id="email" name="email" type="email" autoComplete="email" required autoFocus />
        </Field>
        <Field label="Password" htmlFor="password">
          <Input id="password" name="password" type="password" autoComplete="current-password" required />
        </Field>
        <Button type="submit" className="w-full" disabled={isPending || isLeaving}>
          {isPending || isLeaving ? "Signing in…" : "Sign in"}
        </Button>
      </form>
      {external.length > 0 ? (
        <div className="space-y-2 border-t border-slate-200 pt-4">
          {external.map((provider) => (
            <Button
              key={provider.id}
              variant="secondary"
              className="w-full"
              onClick={() => signIn(provider.id, { callbackUrl: safeCallbackPath(callbackUrl) })}
            >
              Continue with {provider.name}
            </Button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
