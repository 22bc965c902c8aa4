import { redirect } from "next/navigation";

import { FirstAdminForm } from "@/components/auth/first-admin-form";
import { SignInForm } from "@/components/auth/signin-form";
import { getSessionActor } from "@/lib/server/auth/actor";
import { externalSignInOptions } from "@/lib/server/auth/options";
import { countUsers } from "@/lib/server/users/users";
import { safeCallbackPath } from "@/lib/validation/callback-path";

import { createFirstAdminAction } from "./actions";

export const dynamic = "force-dynamic";

const ERRORS: Record<string, string> = {
  NotInvited: "That account has not been invited to Verity. Ask an admin for an invitation.",
  NoEmail: "The sign-in provider did not share an email address.",
  CredentialsSignin: "Wrong email or password.",
};

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string; callbackUrl?: string }>;
}) {
  const { error, callbackUrl } = await searchParams;
  if (await getSessionActor()) redirect(safeCallbackPath(callbackUrl));
  const isFirstRun = (await countUsers()) === 0;
  return (
    <main className="mx-auto mt-16 max-w-sm px-4">
      <h1 className="text-2xl font-semibold">Verity</h1>
      <p className="mt-1 text-sm text-slate-600">Verify generated code-benchmark records.</p>
      <div className="mt-8 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        {isFirstRun ? (
          <FirstAdminForm createFirstAdmin={createFirstAdminAction} />
        ) : (
          <SignInForm
            callbackUrl={safeCallbackPath(callbackUrl)}
            external={externalSignInOptions()}
            initialError={error ? (ERRORS[error] ?? "Sign-in failed. Try again.") : undefined}
          />
        )}
      </div>
    </main>
  );
}
