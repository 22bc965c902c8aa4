"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** How often the page looks again while its figures are behind the campaign. */
const REFRESH_EVERY_MS = 5_000;

/**
 * When the agreement figures were counted, and — while labels or evidence have changed since — a
 * notice that they are being counted again, with the page refreshed until the new count is shown.
 */
export function CountFreshness({ countedAt, changedSince }: { countedAt: string; changedSince: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!changedSince) return;
    const timer = setTimeout(() => router.refresh(), REFRESH_EVERY_MS);
    return () => clearTimeout(timer);
  }, [changedSince, countedAt, router]);

  const time = new Date(countedAt).toLocaleString();
  if (!changedSince) {
    return <p className="text-xs text-slate-500">Counted at {time}, over every label and signal of the campaign.</p>;
  }
  return (
    <p role="status" className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">
      Labels or evidence changed after these figures were counted at {time}. This campaign takes a while to count, so it
      is counted again in the background, and this page shows the new figures by itself. The API&apos;s agreement route
      always counts first.
    </p>
  );
}
