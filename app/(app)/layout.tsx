import { redirect } from "next/navigation";
import type { ReactNode } from "react";

import { TopNav } from "@/components/nav/top-nav";
import { getSessionActor } from "@/lib/server/auth/actor";

export const dynamic = "force-dynamic";

// The shell of signed-in pages. It only redirects signed-out visitors; every page checks its own scope.
export default async function AppLayout({ children }: { children: ReactNode }) {
  const actor = await getSessionActor();
  if (!actor) redirect("/signin");
  return (
    <>
      <TopNav actor={actor} />
      <main className="mx-auto max-w-7xl px-4 py-6">{children}</main>
    </>
  );
}
