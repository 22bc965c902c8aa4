// What a server action answers, in a module the browser may load: the server's wrapper
// (lib/server/action.ts) makes these values, client components read them through useAction
// (components/ui/use-action.ts).

import { z } from "zod";

export type FieldErrors = Record<string, string[]>;

export type ActionFailure = { ok: false; code: string; message: string; fieldErrors?: FieldErrors };

export type ActionResult<T> = { ok: true; data: T } | ActionFailure;

/**
 * A server action as a client component receives it, as a prop from its page: components never
 * import actions from `app/`, so the page decides which action a form calls.
 */
export type Action<I, T> = (input: I) => Promise<ActionResult<T>>;

/**
 * The answer a call gets when it never reached the server or its reply never came back (the
 * connection dropped, the server restarted). Server actions write inside one transaction, so a call
 * whose reply was lost either committed whole or not at all; the form keeps what was typed.
 */
export const UNREACHABLE: ActionFailure = {
  ok: false,
  code: "UNREACHABLE",
  message: "The server could not be reached — nothing was saved. Check the connection and try again.",
};

/** A refused input, the same whether the browser or the server's wrapper checked it. */
export function invalidInput(error: z.ZodError): ActionFailure {
  return {
    ok: false,
    code: "INVALID_INPUT",
    message: "Please fix the highlighted fields.",
    fieldErrors: z.flattenError(error).fieldErrors as FieldErrors,
  };
}
