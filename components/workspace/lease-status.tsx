"use client";

import { useEffect, useRef, useState } from "react";

import { Badge } from "@/components/ui/primitives";
import type { WorkItemState } from "@/lib/annotation/work-item-state";

import type { RenewLeaseAction } from "./action-types";

const RENEW_EVERY_MS = 5 * 60_000;

function clock(date: Date): string {
  return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/**
 * Where the annotator stands with the item: while the lease runs, its expiry (renewed every five
 * minutes while the tab is visible); once it ended (it expired, or a pause ended it) that it ended
 * and what is still possible; after a label, "labelled".
 */
export function LeaseStatus({
  itemId,
  expiresAt,
  state,
  onRenew,
}: {
  itemId: string;
  expiresAt: string | null;
  state: Exclude<WorkItemState, "skipped">;
  onRenew: RenewLeaseAction;
}) {
  const isActive = state === "leased";
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

  if (state === "labelled") return <Badge tone="green">labelled</Badge>;
  if (state === "lease-ended")
    return (
      <Badge tone="amber" title="Your label is still accepted while a slot of this item is free; or skip it.">
        Lease ended: submit while a slot is free, or skip
      </Badge>
    );
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
