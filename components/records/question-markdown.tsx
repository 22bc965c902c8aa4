import ReactMarkdown from "react-markdown";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";

/** Renders a generated problem statement. Generated text is untrusted: raw HTML is sanitized away. */
export function QuestionMarkdown({ source }: { source: string }) {
  return (
    <div className="prose-question text-sm leading-6">
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]}>
        {source}
      </ReactMarkdown>
    </div>
  );
}

// Inline text keeps emphasis and code only; blocks, links and images are unwrapped to their text.
const INLINE_ELEMENTS = ["p", "strong", "em", "del", "code"];

/**
 * One line of untrusted Markdown (a record title, a critic reason) as inline formatted text: bold,
 * italics and `code` render, everything else becomes plain text. Sanitized like the statement.
 */
export function InlineMarkdown({ source }: { source: string }) {
  // A leading "1. " or "- " would make a list of one line; escape it so it stays text.
  const text = source.replace(/^(\d+)([.)])(\s)/, "$1\\$2$3").replace(/^([-+*])(\s)/, "\\$1$2");
  return (
    <ReactMarkdown
      remarkPlugins={[remarkGfm]}
      rehypePlugins={[rehypeSanitize]}
      allowedElements={INLINE_ELEMENTS}
      unwrapDisallowed
      components={{ p: ({ children }) => <>{children}</>, code: ({ children }) => <code className="rounded bg-slate-100 px-1 font-mono text-[0.9em]">{children}</code> }}
    >
      {text}
    </ReactMarkdown>
  );
}
