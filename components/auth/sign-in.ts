"use client";

import { signIn } from "next-auth/react";

import type { ActionResult } from "@/lib/actions/result";

/**
 * Email-and-password sign-in as an ActionResult, so the auth forms report it through useAction like
 * any other write (next-auth's signIn throws when the server cannot be reached).
 */
export async function signInWithPassword(email: string, password: string): Promise<ActionResult<null>> {
  const result = await signIn("credentials", { email, password, redirect: false });
  if (result?.ok) return { ok: true, data: null };
  const message = result?.error && result.error !== "CredentialsSignin" ? result.error : "Wrong email or password.";
  return { ok: false, code: "SIGN_IN_REFUSED", message };
}
