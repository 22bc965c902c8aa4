"use client";

import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";

import { Button, ErrorNote, Field, Input } from "@/components/ui/primitives";
import { safeCallbackPath } from "@/lib/validation/callback-path";

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
  const [error, setError] = useState(initialError);
  const [isPending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(undefined);
    const result = await signIn("credentials", {
      email: form.get("email"),
      password: form.get("password"),
      redirect: false,
    });
    if (result?.ok) {
      // Checked again here: the prop is the only thing between a crafted link and a redirect.
      router.push(safeCallbackPath(callbackUrl));
      router.refresh();
      return;
    }
    setPending(false);
    setError(result?.error && result.error !== "CredentialsSignin" ? result.error : "Wrong email or password.");
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
        <Button type="submit" className="w-full" disabled={isPending}>
          {isPending ? "Signing in…" : "Sign in"}
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
