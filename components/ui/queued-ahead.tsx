import { countOf } from "@/lib/format/count";

/** Why a started batch has nothing done yet: the jobs its queue hands out before its first one. */
export function QueuedAhead({ count }: { count: number | undefined }) {
  if (!count) return null;
  return (
    <p className="mt-1 text-xs text-amber-800" data-testid="queued-ahead">
      Waiting: {countOf(count, "job")} ahead in the queue (work started earlier, or running now). Work people start goes
      before Verity&apos;s own, such as the demo&apos;s solver runs.
    </p>
  );
}
