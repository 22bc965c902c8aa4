import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";

import { TopNav } from "@/components/nav/top-nav";
import { getSessionActor } from "@/lib/server/auth/actor";

export const dynamic = "force-dynamic";

// The shell of signed-in pages. It only redirects signed-out visitors, back to the page they asked
// for after sign-in (the sign-in page keeps only same-origin paths); every page checks its own scope.
export default async function AppLayout({ children }: { children: ReactNode }) {
  const actor = await getSessionActor();
  if (!actor)
    redirect(`/signin?callbackUrl=${encodeURIComponent((await headers()).get("x-verity-path") ?? "/datasets")}`);
  return (
    <>
      <TopNav actor={actor} />
      <main className="mx-auto max-w-7xl px-4 py-6">{children}</main>
    </>
  );
}
