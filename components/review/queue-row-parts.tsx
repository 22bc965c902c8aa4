import Link from "next/link";
import type { ReactNode } from "react";

import { Badge } from "@/components/ui/primitives";

/** A queue row's first cell: the problem's title linking to its adjudication view, and where it stands. */
export function QueueItemCell({
  href,
  title,
  recordId,
  position,
  children,
}: {
  href: string;
  title: string;
  recordId: number;
  position: number;
  /** Shown after the record and position, e.g. unread comments. */
  children?: ReactNode;
}) {
  return (
    <td className="px-3 py-2">
      <Link href={href} prefetch={false} className="font-medium text-indigo-700 hover:underline">
        {title}
      </Link>
      <div className="text-xs text-slate-400">
        Record {recordId} · #{position}
        {children}
      </div>
    </td>
  );
}

/** The item's current final label, or why it has none. */
export function FinalLabelBadge({ valid, isLabelled = true }: { valid: boolean | null; isLabelled?: boolean }) {
  if (!isLabelled) return <Badge>not labelled</Badge>;
  if (valid === null) return <Badge>unresolved</Badge>;
  return valid ? <Badge tone="green">valid</Badge> : <Badge tone="red">invalid</Badge>;
}
