"use client";

import { useEffect, useRef, useState } from "react";

import { Badge } from "@/components/ui/primitives";

import type { RenewLeaseAction } from "./action-types";

const RENEW_EVERY_MS = 5 * 60_000;

function clock(date: Date): string {
  return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/** Shows the lease expiry and renews the lease every five minutes while the tab is visible. */
export function LeaseStatus({
  itemId,
  expiresAt,
  isActive,
  onRenew,
}: {
  itemId: string;
  expiresAt: string | null;
  isActive: boolean;
  onRenew: RenewLeaseAction;
}) {
  const [expiry, setExpiry] = useState(expiresAt ? new Date(expiresAt) : null);
  const [problem, setProblem] = useState<string>();
  const lastRenewal = useRef(0);
  // The action's identity may change on a refresh; the renewal timer should not restart for that.
  const renewAction = useRef(onRenew);
  useEffect(() => {
    renewAction.current = onRenew;
  });

  useEffect(() => {
    if (!isActive) return;
    lastRenewal.current = Date.now();
    const renew = async () => {
      if (document.visibilityState !== "visible" || Date.now() - lastRenewal.current < RENEW_EVERY_MS - 1000) return;
      lastRenewal.current = Date.now();
      try {
        const result = await renewAction.current({ itemId });
        if (result.ok) {
          setExpiry(new Date(result.data.leaseExpiresAt));
          setProblem(undefined);
        } else {
          setProblem(result.message);
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
      {expiry ? (
        <span title="Renewed every 5 minutes while this tab is visible" suppressHydrationWarning>
          Lease until {clock(expiry)}
        </span>
      ) : null}
      {problem ? (
        <span className="text-red-700" role="alert">
          {problem}
        </span>
      ) : null}
    </span>
  );
}
