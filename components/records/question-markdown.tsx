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
