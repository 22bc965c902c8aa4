import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { QuestionMarkdown } from "@/components/records/question-markdown";

import { MARKDOWN_RENDER_LIMIT, splitForRendering } from "./render-limit";

const paragraph = "Write `solve(n)` that returns the **sum** of the first n natural numbers.\n\n";

describe("splitForRendering", () => {
  it("keeps text that fits whole", () => {
    expect(splitForRendering("short")).toEqual({ head: "short", rest: "" });
  });

  it("cuts long text at a paragraph break within the limit and loses nothing", () => {
    const text = paragraph.repeat(1000);
    const { head, rest } = splitForRendering(text);
    expect(head.length).toBeLessThanOrEqual(MARKDOWN_RENDER_LIMIT);
    expect(head.length).toBeGreaterThan(MARKDOWN_RENDER_LIMIT * 0.8);
    expect(head.endsWith("numbers.")).toBe(true);
    expect(head + rest).toBe(text);
  });

  it("cuts text with no line breaks at the limit, never inside a surrogate pair", () => {
    const text = "a".repeat(9) + "😀".repeat(10);
    const { head, rest } = splitForRendering(text, 10);
    expect(head).toBe("a".repeat(9));
    expect(rest.startsWith("😀")).toBe(true);
    expect(splitForRendering("x".repeat(50), 10).head).toBe("x".repeat(10));
  });
});

describe("QuestionMarkdown", () => {
  it("renders a 1 MB question's head as Markdown and the rest behind “Show all”", () => {
    const source = paragraph.repeat(Math.ceil((1024 * 1024) / paragraph.length));
    const html = renderToString(createElement(QuestionMarkdown, { source }));
    const renderedParagraphs = html.split("<strong>").length - 1;
    expect(renderedParagraphs).toBeLessThanOrEqual(Math.ceil(MARKDOWN_RENDER_LIMIT / paragraph.length));
    expect(html).toContain("Show all");
    // Nothing is lost: the last paragraph is still on the page, as text.
    expect(html.endsWith("</details></div>")).toBe(true);
    expect(html).toContain("Write `solve(n)` that returns the **sum**");
  });

  it("renders a short question whole, with no “Show all”", () => {
    const html = renderToString(createElement(QuestionMarkdown, { source: paragraph }));
    expect(html).toContain("<strong>sum</strong>");
    expect(html).not.toContain("Show all");
  });
});
