// What an annotator is told when the queue has nothing for them now but may later: the items they
// could still label are leased by other annotators, and a lease that runs out (or is skipped) puts
// the item back in the queue.

/** "2 items are with other annotators; they come back here if a lease runs out." */
export function withOthersMessage(items: number): string {
  return items === 1
    ? "1 item is with another annotator; it comes back here if the lease runs out."
    : `${items.toLocaleString("en")} items are with other annotators; they come back here if a lease runs out.`;
}
