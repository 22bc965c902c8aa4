import "server-only";

import { backoffMs, isRetryableStatus, retryAfterMs } from "@/lib/critics/retry";

// One call to an OpenAI-compatible chat endpoint (POST {baseUrl}/chat/completions), with the
// retries a critic run needs: 429 and 5xx answers, timeouts and dropped connections are asked again
// after a backoff that honours Retry-After; other answers are final.

export type ChatRequest = {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  temperature: number;
  maxTokens: number;
  prompt: string;
  timeoutMs: number;
};

/** The endpoint's reply: the assistant's text when the body has one, else the body as it came. */
export type ChatReply = {
  /** The assistant message, or the raw body when it was not a chat completion (kept, shown unreadable). */
  text: string;
  isChatCompletion: boolean;
  /** The body was larger than MAX_REPLY_BYTES: `text` is its beginning. */
  isCut: boolean;
  promptTokens: number | null;
  completionTokens: number | null;
  attempts: number;
  latencyMs: number;
};

export class EndpointError extends Error {
  constructor(
    message: string,
    readonly attempts: number,
  ) {
    super(message);
  }
}

/** The largest reply body read: a critic's verdict is a few kilobytes; more is cut and kept unreadable. */
export const MAX_REPLY_BYTES = 1024 * 1024;

export type RetryPolicy = { maxAttempts: number; baseMs: number; maxWaitMs: number };
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseMs: 1_000, maxWaitMs: 60_000 };

const usageNumber = (value: unknown): number | null =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : null;

/** Reads a 200 body: the first choice's message when it is a chat completion. */
function readCompletion(
  body: string,
): Pick<ChatReply, "text" | "isChatCompletion" | "promptTokens" | "completionTokens"> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { text: body, isChatCompletion: false, promptTokens: null, completionTokens: null };
  }
  const completion = parsed as {
    choices?: { message?: { content?: unknown } }[];
    usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
  };
  const content = completion?.choices?.[0]?.message?.content;
  const usage = {
    promptTokens: usageNumber(completion?.usage?.prompt_tokens),
    completionTokens: usageNumber(completion?.usage?.completion_tokens),
  };
  if (typeof content !== "string") return { text: body, isChatCompletion: false, ...usage };
  return { text: content, isChatCompletion: true, ...usage };
}

/** Where a redirect points, as an origin only (its path and query may carry anything). */
function originOf(location: string | null, base: string): string {
  try {
    return location ? new URL(location, base).origin : "nowhere";
  } catch {
    return "an address that is not a URL";
  }
}

/**
 * Asks the endpoint once per attempt until an answer is final. Throws EndpointError when every
 * attempt failed or the endpoint refused the request (4xx other than 429), with the last reason.
 */
export async function callChatCompletion(
  request: ChatRequest,
  {
    retry = DEFAULT_RETRY,
    sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    signal,
  }: { retry?: RetryPolicy; sleep?: (ms: number) => Promise<void>; signal?: AbortSignal } = {},
): Promise<ChatReply> {
  const url = `${request.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const body = JSON.stringify({
    model: request.model,
    temperature: request.temperature,
    max_tokens: request.maxTokens,
    messages: [{ role: "user", content: request.prompt }],
  });
  const started = Date.now();
  let lastReason = "no attempt was made";
  for (let attempt = 1; attempt <= retry.maxAttempts; attempt++) {
    let retryAfter: number | null = null;
    const attemptSignal = attemptSignalOf(signal, request.timeoutMs);
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(request.apiKey ? { authorization: `Bearer ${request.apiKey}` } : {}),
        },
        body,
        // A redirect would carry the key to wherever the endpoint points: none is followed.
        redirect: "manual",
        signal: attemptSignal.signal,
      });
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        throw new EndpointError(
          `the endpoint redirected (${response.status}) to ${originOf(response.headers.get("location"), url)}; redirects are not followed, so the API key stays with the base URL: set the base URL to the address it points to`,
          attempt,
        );
      }
      const { text, isCut } = await readCapped(response, MAX_REPLY_BYTES);
      if (response.ok) {
        const reply = isCut
          ? { text, isChatCompletion: false, promptTokens: null, completionTokens: null }
          : readCompletion(text);
        return { ...reply, isCut, attempts: attempt, latencyMs: Date.now() - started };
      }
      lastReason = `the endpoint answered ${response.status}: ${text.slice(0, 300)}`;
      if (!isRetryableStatus(response.status)) throw new EndpointError(lastReason, attempt);
      retryAfter = retryAfterMs(response.headers.get("retry-after"), Date.now());
    } catch (error) {
      if (error instanceof EndpointError) throw error;
      if (signal?.aborted) throw new EndpointError("the run was stopped", attempt);
      lastReason = attemptSignal.isTimedOut()
        ? `no answer within ${request.timeoutMs} ms`
        : `the endpoint could not be reached: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      attemptSignal.release();
    }
    if (attempt < retry.maxAttempts)
      await sleep(
        backoffMs({ attempt, retryAfter, baseMs: retry.baseMs, maxMs: retry.maxWaitMs, random: Math.random() }),
      );
  }
  throw new EndpointError(`${lastReason} (after ${retry.maxAttempts} attempts)`, retry.maxAttempts);
}

/**
 * One attempt's signal: aborted by the caller's signal or by its own timer. A plain controller held
 * by a timer that is cleared afterwards, not AbortSignal.any over AbortSignal.timeout: the runtime
 * holds the signals a composed one listens to only weakly, so a collection could drop the timeout
 * and let a reply run for minutes past it.
 */
function attemptSignalOf(
  outer: AbortSignal | undefined,
  timeoutMs: number,
): { signal: AbortSignal; isTimedOut: () => boolean; release: () => void } {
  const controller = new AbortController();
  let isTimedOut = false;
  const timer = setTimeout(() => {
    isTimedOut = true;
    controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, "TimeoutError"));
  }, timeoutMs);
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener("abort", onOuterAbort, { once: true });
  return {
    signal: controller.signal,
    isTimedOut: () => isTimedOut,
    release: () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onOuterAbort);
    },
  };
}

/** The body as text, at most `maxBytes` of it: a larger one is cut there and the rest never read. */
async function readCapped(response: Response, maxBytes: number): Promise<{ text: string; isCut: boolean }> {
  if (!response.body) return { text: "", isCut: false };
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let isCut = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > maxBytes) {
      parts.push(value.subarray(0, maxBytes - size));
      isCut = true;
      await reader.cancel();
      break;
    }
    parts.push(value);
    size += value.byteLength;
  }
  // A cut may split a character: the decoder turns its half into U+FFFD rather than failing.
  return { text: Buffer.concat(parts).toString("utf8"), isCut };
}
