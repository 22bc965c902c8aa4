"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** Re-renders the server page every `everyMs` while any job it shows runs; a finished page stays still. */
export function RefreshWhileRunning({ isRunning, everyMs }: { isRunning: boolean; everyMs: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!isRunning) return;
    const timer = setInterval(() => router.refresh(), everyMs);
    return () => clearInterval(timer);
  }, [isRunning, everyMs, router]);
  return null;
}
