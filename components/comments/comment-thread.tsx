import { Card } from "@/components/ui/primitives";
import type { Actor } from "@/lib/server/auth/permissions";
import { listComments } from "@/lib/server/comments/comments";

import { type CommentActions, CommentThreadView } from "./comment-thread-view";

/** The item's discussion thread as a card: loads the comments for the viewer and marks new ones. */
export async function CommentThread({
  actor,
  itemId,
  addComment,
  markRead,
}: { actor: Actor; itemId: string } & CommentActions) {
  const { comments, unread, isHoldingBack } = await listComments({ actor, itemId });
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
