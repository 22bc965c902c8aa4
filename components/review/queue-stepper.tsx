"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";

import { useHotkeys } from "@/components/workspace/use-hotkeys";

/** Where the item sits in the (filtered) queue, with previous/next links on K and J. */
export function QueueStepper({
  queueHref,
  previousHref,
  nextHref,
  position,
  total,
}: {
  queueHref: string;
  previousHref: string | null;
  nextHref: string | null;
  position: number | null;
  total: number;
}) {
  const router = useRouter();
  useHotkeys({ j: () => nextHref && router.push(nextHref), k: () => previousHref && router.push(previousHref) });
  const linkStyle = "rounded-md px-2 py-1 ring-1 ring-slate-300 hover:bg-slate-50";
  return (
    <nav aria-label="Queue" className="flex items-center gap-2 text-sm">
      <Link href={queueHref} className="text-indigo-700 hover:underline">
        Queue
      </Link>
      <span className="text-slate-500" data-testid="queue-position">
        {position === null ? `not in the queue · ${total} left` : `${position} of ${total}`}
      </span>
      {previousHref ? (
        <Link href={previousHref} prefetch={false} className={linkStyle} title="Shortcut: K">
          ← Previous (K)
        </Link>
      ) : null}
      {nextHref ? (
        <Link href={nextHref} prefetch={false} className={linkStyle} title="Shortcut: J">
          Next (J) →
        </Link>
      ) : null}
    </nav>
  );
}
