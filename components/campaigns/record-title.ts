/** The first heading of a Markdown problem statement (or its first line), as a short title. */
export function recordTitle(question: string): string {
  const line = question.split("\n").find((text) => text.trim() !== "") ?? "Untitled";
  return line.replace(/^#+\s*/, "").trim().slice(0, 120) || "Untitled";
}
