"use client";

import { useEffect, useRef, useState } from "react";

import { Badge } from "@/components/ui/primitives";

const RENEW_EVERY_MS = 5 * 60_000;

function clock(date: Date): string {
  return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/** Shows the lease expiry and renews the lease every five minutes while the tab is visible. */
export function LeaseStatus({ itemId, expiresAt, isActive }: { itemId: string; expiresAt: string | null; isActive: boolean }) {
  const [expiry, setExpiry] = useState(expiresAt ? new Date(expiresAt) : null);
  const [problem, setProblem] = useState<string>();
  const lastRenewal = useRef(0);

  useEffect(() => {
    if (!isActive) return;
    lastRenewal.current = Date.now();
    const renew = async () => {
      if (document.visibilityState !== "visible" || Date.now() - lastRenewal.current < RENEW_EVERY_MS - 1000) return;
      lastRenewal.current = Date.now();
      try {
        const response = await fetch(`/api/v1/items/${itemId}/lease`, { method: "POST" });
        const body = (await response.json()) as { leaseExpiresAt?: string; error?: { message: string } };
        if (response.ok && body.leaseExpiresAt) {
          setExpiry(new Date(body.leaseExpiresAt));
          setProblem(undefined);
        } else {
          setProblem(body.error?.message ?? "The lease could not be renewed.");
        }
      } catch {
        setProblem("The lease could not be renewed: the server is unreachable.");
      }
    };
    const timer = window.setInterval(() => void renew(), RENEW_EVERY_MS);
    const onVisibility = () => void renew();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [itemId, isActive]);

  if (!isActive) return <Badge tone="green">labelled</Badge>;
  return (
    <span className="flex items-center gap-2 text-xs text-slate-600">
      {expiry ? <span title="Renewed every 5 minutes while this tab is visible" suppressHydrationWarning>Lease until {clock(expiry)}</span> : null}
      {problem ? (
        <span className="text-red-700" role="alert">
          {problem}
        </span>
      ) : null}
    </span>
  );
}
