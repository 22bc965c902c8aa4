// Taking the code out of a model's raw reply, as AutoCodeBench's own evaluation does, so a pass@1
// computed here is the number its evaluation prints for the same replies.
//
// The rule is that of `_extract_code_blocks` in `call_sandbox.py` of the public repository
// zhoucz97/autocodebench-iclr (the evaluation run with `--solution_key output`), restated:
//  1. An empty reply gives no code.
//  2. The first fenced block written as three backticks, a language tag of word characters and a
//     newline, up to the next three backticks, whose body is not blank after trimming, is the code
//     (trimmed). A fence without a tag (or with `c++`, whose `+` is no word character) is no block.
//  3. Elixir: the record's canonical solution is one `defmodule … end`; the reply's code is put
//     inside that module (its own first and last lines replaced when it wrote `defmodule … end`,
//     otherwise every line indented by two spaces). The reference decides "Elixir" by the block's
//     tag when a block was found and by the record's language when none was.
//  4. With no block, the reply is trimmed, one leading and one trailing ``` are dropped, and when
//     more than one line is left its first line (taken for a language tag) is dropped.
// The reference submits the text "error! no code extracted" when all this gives nothing; here the
// solution is stored with no code and counted as not solved without being run.

const FENCED_BLOCK = /```(\w+)\n([\s\S]*?)```/g;

/** Python's str.strip() for the whitespace a reply holds. */
function strip(text: string): string {
  return text.trim();
}

function wrapInElixirModule(code: string, canonicalSolution: string): string {
  const moduleLines = strip(canonicalSolution).split("\n");
  const first = moduleLines[0];
  const last = moduleLines[moduleLines.length - 1];
  // The reference asserts this shape of the canonical solution; a record without it is left alone.
  if (!first.startsWith("defmodule") || !last.startsWith("end")) return code;
  let lines = code.split("\n");
  if (lines[0].startsWith("defmodule") && lines[lines.length - 1].startsWith("end")) lines = lines.slice(1, -1);
  else lines = lines.map((line) => `  ${line}`);
  return [first, ...lines, last].join("\n");
}

/**
 * The code of a raw model reply under the reference evaluation's rule (see the top of this file);
 * "" when it holds none. `language` and `canonicalSolution` are the record's.
 */
export function extractCodeFromReply(reply: string, language: string, canonicalSolution: string): string {
  if (!reply) return "";
  let code = "";
  let decidingLanguage = language;
  for (const match of reply.matchAll(FENCED_BLOCK)) {
    decidingLanguage = match[1];
    const body = strip(match[2]);
    if (body) {
      code = body;
      break;
    }
  }
  if (decidingLanguage === "elixir") code = wrapInElixirModule(code, canonicalSolution);
  if (code !== "") return code;

  let cleaned = strip(reply);
  if (cleaned.startsWith("```")) cleaned = cleaned.slice(3);
  if (cleaned.endsWith("```")) cleaned = cleaned.slice(0, -3);
  const lines = strip(cleaned).split("\n");
  if (lines.length > 1) return strip(lines.slice(1).join("\n"));
  return strip(cleaned);
}
