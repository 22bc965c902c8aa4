import { addComment, listComments } from "@/lib/server/comments/comments";
import { answer, apiRoute, readJson } from "@/lib/server/http";
import { commentSchema } from "@/lib/validation/comments";

/** GET /api/v1/items/{id}/comments → {comments, unread, isHoldingBack}, oldest first (the thread the workspace shows). */
export const GET = apiRoute<{ id: string }>("comments:write", async ({ actor, params }) => {
  const thread = await listComments({ actor, itemId: params.id });
  return answer("GET /items/{id}/comments", {
    ...thread,
    comments: thread.comments.map((comment) => ({ ...comment, createdAt: comment.createdAt.toISOString() })),
  });
});

/** POST /api/v1/items/{id}/comments with {body} → 201 {id}. */
export const POST = apiRoute<{ id: string }>("comments:write", async ({ request, actor, params }) => {
  const { body } = commentSchema.omit({ itemId: true }).parse(await readJson(request));
  return answer("POST /items/{id}/comments", await addComment({ actor, itemId: params.id, body }), { status: 201 });
});
