"use client";

import { useCallback, useRef, useState } from "react";
import type { z } from "zod";

import { type Action, type ActionResult, type FieldErrors, invalidInput, UNREACHABLE } from "@/lib/actions/result";

/** A form's input before the check: any field may still be unset (null), such as a verdict not chosen yet. */
type Draft<T> = { [K in keyof T]: T[K] | null };

const NO_FIELD_ERRORS: FieldErrors = {};
const BUSY: ActionResult<never> = { ok: false, code: "BUSY", message: "Still working on the last request." };

/**
 * The client half of every write. `run` calls a server action (or anything answering an
 * ActionResult), tracks whether it is pending, and keeps the failure's message and field errors for
 * the form to show; a call that throws — the server is down, the connection dropped — becomes one
 * "could not be reached" failure instead of a form stuck on "Saving…". `submit` first checks the
 * input with the schema the server's action parses it with, so a form shows the same messages
 * without a round trip.
 */
export function useAction(initial: { message?: string } = {}) {
  const [isPending, setPending] = useState(false);
  const [message, setMessage] = useState(initial.message);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>(NO_FIELD_ERRORS);
  // What the last call did, in the form's words (announce); a new call clears it.
  const [notice, setNotice] = useState<string>();
  // A second submit while the first is in flight is dropped, not sent twice.
  const inFlight = useRef(false);

  const settle = useCallback(<T>(result: ActionResult<T>): ActionResult<T> => {
    setMessage(result.ok ? undefined : result.message);
    setFieldErrors((!result.ok && result.fieldErrors) || NO_FIELD_ERRORS);
    if (!result.ok) setNotice(undefined);
    return result;
  }, []);

  const run = useCallback(
    async <T>(call: () => Promise<ActionResult<T>>): Promise<ActionResult<T>> => {
      if (inFlight.current) return BUSY;
      inFlight.current = true;
      setPending(true);
      setNotice(undefined);
      try {
        return settle(await call());
      } catch (error) {
        console.error(error);
        return settle<T>(UNREACHABLE);
      } finally {
        inFlight.current = false;
        setPending(false);
      }
    },
    [settle],
  );

  const submit = useCallback(
    <S extends z.ZodType, T>(schema: S, input: Draft<z.input<S>>, action: Action<z.input<S>, T>) => {
      const parsed = schema.safeParse(input);
      if (!parsed.success) return Promise.resolve(settle<T>(invalidInput(parsed.error)));
      // It parsed, so it is an input the action takes (sent as typed: the action parses it again).
      return run(() => action(input as z.input<S>));
    },
    [run, settle],
  );

  /** Shows a message of the form's own (a check no schema makes), or clears it. */
  const say = useCallback((text: string | undefined) => setMessage(text), []);

  /** Says what a call that succeeded did (a status line under the form) until the next call. */
  const announce = useCallback((text: string) => setNotice(text), []);

  return { run, submit, isPending, message, fieldErrors, say, notice, announce };
}
