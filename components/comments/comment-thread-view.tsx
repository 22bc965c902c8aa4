"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

import { Badge, Button, ErrorNote } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { COMMENT_MAX_LENGTH, commentSchema } from "@/lib/validation/comments";
import type { Action } from "@/lib/actions/result";

/** What the page lets the thread do: add a comment, mark the thread read. */
export type CommentActions = {
  addComment: Action<{ itemId: string; body: string }, unknown>;
  markRead: Action<{ itemId: string; seenUpTo: string }, unknown>;
};

type Comment = { id: string; author: string; body: string; createdAt: string; isMine: boolean; isUnread: boolean };

/** The thread and its form. New comments keep their "new" mark for this view; the thread is marked read on opening. */
export function CommentThreadView({
  itemId,
  comments,
  unread,
  addComment,
  markRead,
}: { itemId: string; comments: Comment[]; unread: number } & CommentActions) {
  const router = useRouter();
  const [body, setBody] = useState("");
  const { submit, isPending, message, fieldErrors } = useAction();
  const error = fieldErrors.body?.[0] ?? message;

  // Read up to the newest comment shown here, not up to whenever the request lands.
  const seenUpTo = comments.reduce<string | null>(
    (newest, comment) => (newest === null || comment.createdAt > newest ? comment.createdAt : newest),
    null,
  );
  useEffect(() => {
    if (unread > 0 && seenUpTo) void markRead({ itemId, seenUpTo });
  }, [itemId, unread, seenUpTo, markRead]);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!(await submit(commentSchema, { itemId, body }, addComment)).ok) return;
    setBody("");
    router.refresh();
  }

  return (
    <div className="space-y-3">
      {comments.length === 0 ? (
        <p className="text-sm text-slate-500">
          No comments yet. Ask here if something is unclear (“is this test nondeterministic?”).
        </p>
      ) : (
        <ol className="space-y-2" aria-label="Comments">
          {comments.map((comment) => (
            <li
              key={comment.id}
              aria-label={`Comment by ${comment.author}`}
              className={`rounded-md p-2 text-sm ring-1 ${comment.isUnread ? "bg-amber-50 ring-amber-200" : "bg-slate-50 ring-slate-200"}`}
            >
              <div className="mb-1 flex items-center gap-2 text-xs text-slate-500">
                <span className="font-medium text-slate-700">{comment.isMine ? "You" : comment.author}</span>
                <time dateTime={comment.createdAt}>{comment.createdAt.slice(0, 16).replace("T", " ")} UTC</time>
                {comment.isUnread ? <Badge tone="amber">new</Badge> : null}
              </div>
              <p className="whitespace-pre-wrap break-words text-slate-800">{comment.body}</p>
            </li>
          ))}
        </ol>
      )}
      <form onSubmit={onSubmit} className="space-y-2" aria-label="New comment">
        {error ? <ErrorNote>{error}</ErrorNote> : null}
        <label htmlFor={`comment-${itemId}`} className="sr-only">
          Comment
        </label>
        <textarea
          id={`comment-${itemId}`}
          value={body}
          onChange={(event) => setBody(event.target.value)}
          rows={2}
          maxLength={COMMENT_MAX_LENGTH}
          placeholder="Write a comment…"
          className="w-full rounded-md px-2 py-1.5 text-sm ring-1 ring-slate-300 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        />
        <Button type="submit" variant="secondary" disabled={isPending || body.trim() === ""}>
          {isPending ? "Posting…" : "Post comment"}
        </Button>
      </form>
    </div>
  );
}
