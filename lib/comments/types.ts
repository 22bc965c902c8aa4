// What an item's comment thread shows: client-safe shapes, no server code.

type CommentView = {
  id: string;
  author: string;
  body: string;
  createdAt: Date;
  isMine: boolean;
  isUnread: boolean;
};

export type CommentList = { comments: CommentView[]; unread: number; isHoldingBack: boolean };
