"use client";

import { useRouter } from "next/navigation";
import type { z } from "zod";

import { Field, Input } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";

import { signInWithPassword } from "./sign-in";

/** The password a new account chooses, with the rule the server checks said beside it. */
export function NewPasswordField({ error }: { error?: string }) {
  return (
    <Field label="Password" htmlFor="password" error={error} hint="At least 10 characters, at most 72 bytes.">
      <Input id="password" name="password" type="password" autoComplete="new-password" required minLength={10} />
    </Field>
  );
}

/**
 * A form that creates an account (the first admin, an invited person): `create` sends the action
 * with its own schema and, once the account exists, signs it in and opens the datasets.
 */
export function useNewAccount() {
  const router = useRouter();
  const action = useAction();
  const { run, submit } = action;

  async function create<S extends z.ZodType>(
    schema: S,
    input: z.input<S>,
    createAccount: Action<z.input<S>, unknown>,
    signInAs: { email: string; password: string },
  ) {
    if (!(await submit(schema, input, createAccount)).ok) return;
    await run(() => signInWithPassword(signInAs.email, signInAs.password));
    router.push("/datasets");
    router.refresh();
  }

  return { ...action, create };
}
