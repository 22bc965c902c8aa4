import { Card } from "@/components/ui/primitives";
import type { CommentList } from "@/lib/comments/types";

import { type CommentActions, CommentThreadView } from "./comment-thread-view";

/** The item's discussion thread as a card, from the comments its page read for the viewer; marks new ones. */
export function CommentThread({
  thread: { comments, unread, isHoldingBack },
  itemId,
  addComment,
  markRead,
}: { thread: CommentList; itemId: string } & CommentActions) {
  return (
    <Card title={unread > 0 ? `Comments (${comments.length}, ${unread} new)` : `Comments (${comments.length})`}>
      {isHoldingBack ? (
        <p className="mb-2 text-xs text-slate-500">
          Other annotators’ comments appear once you have labelled this item, so they do not sway your label.
        </p>
      ) : null}
      <CommentThreadView
        itemId={itemId}
        unread={unread}
        comments={comments.map((comment) => ({ ...comment, createdAt: comment.createdAt.toISOString() }))}
        addComment={addComment}
        markRead={markRead}
      />
    </Card>
  );
}
