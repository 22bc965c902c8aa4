"use client";

import Link from "next/link";
import { useEffect, useState } from "react";

import { Button } from "@/components/ui/primitives";

/**
 * The page shown when rendering fails. Next hides the server's error from the browser, so the page
 * asks the health check whether the database is the cause and says so plainly.
 */
export default function ErrorPage({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const [isDatabaseDown, setDatabaseDown] = useState(false);

  useEffect(() => {
    fetch("/api/health")
      .then((response) => response.json() as Promise<{ db?: { ok?: boolean } }>)
      .then((health) => setDatabaseDown(health.db?.ok === false))
      .catch(() => {});
  }, []);

  return (
    <main className="mx-auto mt-16 max-w-lg px-4" role="alert">
      <h1 className="text-xl font-semibold text-slate-900">
        {isDatabaseDown ? "The database is not reachable" : "This page could not be shown"}
      </h1>
      <p className="mt-2 text-sm text-slate-600">
        {isDatabaseDown
          ? "Verity cannot reach its database right now, so nothing can be read or saved. Your work already saved is safe. Try again in a moment; if it lasts, tell whoever runs Verity."
          : "Something went wrong on the server. It has been logged. Try again; if it keeps happening, tell whoever runs Verity."}
      </p>
      <div className="mt-6 flex gap-3">
        <Button onClick={() => reset()}>Try again</Button>
        <Link href="/datasets" className="self-center text-sm text-indigo-700 hover:underline">
          Go to datasets
        </Link>
      </div>
    </main>
  );
}
