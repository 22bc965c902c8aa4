/** The first heading of a Markdown problem statement (or its first line), as a short plain-text title. */
export function recordTitle(question: string): string {
  const line = question.split("\n").find((text) => text.trim() !== "") ?? "";
  return (
    line
      .replace(/^[#>\s]+/, "")
      .replace(/\*\*|__|`/g, "")
      .trim()
      .slice(0, 120) || "Untitled"
  );
}
