import ReactMarkdown from "react-markdown";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";

import { splitForRendering } from "@/lib/records/render-limit";

/**
 * Renders a generated problem statement. Generated text is untrusted: raw HTML is sanitized away.
 * Only the head of a very long statement is rendered as Markdown; the rest is one click away as text.
 */
export function QuestionMarkdown({ source }: { source: string }) {
  const { head, rest } = splitForRendering(source);
  return (
    <div className="prose-question text-sm leading-6">
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]}>
        {head}
      </ReactMarkdown>
      {rest ? (
        <details className="mt-3 rounded-md ring-1 ring-slate-200">
          <summary className="cursor-pointer px-3 py-2 font-medium text-indigo-700">
            Show all: {rest.length.toLocaleString("en")} more characters, as plain text
          </summary>
          <div className="max-h-[32rem] overflow-auto whitespace-pre-wrap break-words border-t border-slate-200 px-3 py-2 font-mono text-xs">
            {rest}
          </div>
        </details>
      ) : null}
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
      components={{
        p: ({ children }) => <>{children}</>,
        code: ({ children }) => <code className="rounded bg-slate-100 px-1 font-mono text-[0.9em]">{children}</code>,
      }}
    >
      {text}
    </ReactMarkdown>
  );
}
