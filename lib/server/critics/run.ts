import "server-only";

import { renderCriticPrompt } from "@/lib/critics/template";
import { findCriticConfidence, parseCriticOutput } from "@/lib/records/critic";
import { unstorableCharacter } from "@/lib/records/json-limits";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { openSealedSecret } from "@/lib/server/auth/secrets";
import { criticKeyFromEnvironment } from "@/lib/server/config";
import { databaseFailure } from "@/lib/server/db/failures";
import { escapeNul } from "@/lib/server/runs/runs";
import {
  type CriticResultInput,
  criticRunStatus,
  findCriticRunToProcess,
  finishCriticRun,
  nextPendingCriticRecords,
  type PendingCriticRecord,
  writeCriticResult,
} from "./queries";

import { callChatCompletion, DEFAULT_RETRY, EndpointError, MAX_REPLY_BYTES, type RetryPolicy } from "./endpoint";

// Processing a critic run: ask the endpoint about every pending record of the run, `concurrency`
// at a time, and store each reply as it comes, so a crash loses only the requests in flight.

const PAGE_SIZE = 200;
const STATUS_POLL_MS = 1_000;
/** How long requests still in flight when a stretch's time is up may take before they are dropped (their records stay pending). */
export const STRETCH_GRACE_MS = 30_000;

/** How long one stretch (one job) asks before it queues its continuation. */
export const CRITIC_STRETCH_MS = 120_000;

/** How a stretch of processing ended: the run is done, it was paused or cancelled, or time ran out and more remains. */
export type CriticRunOutcome = "finished" | "stopped" | "continue";

/** The API key a critic sends: the named critic key variable of this process, else its sealed key, else none. */
function apiKeyOf(critic: { apiKeyEnv: string | null; apiKeySealed: string | null }): string | null {
  if (critic.apiKeyEnv) {
    const value = criticKeyFromEnvironment(critic.apiKeyEnv);
    if (!value)
      throw new Error(`the environment variable ${critic.apiKeyEnv} that holds the critic's API key is not set`);
    return value;
  }
  return critic.apiKeySealed ? openSealedSecret(critic.apiKeySealed) : null;
}

const REDACTED = "[redacted]";
// With the u flag a class of surrogates matches only unpaired ones; a pair is one code point.
const LONE_SURROGATES = /[\ud800-\udfff]/gu;

/** Text PostgreSQL can store: a NUL becomes the visible ␀ (as run output is kept), a lone surrogate U+FFFD. */
function storableText(text: string): string {
  return escapeNul(text).replace(LONE_SURROGATES, "\ufffd");
}

/**
 * The result as it may be stored and shown: every copy of the API key replaced (an endpoint that
 * echoes the bearer token, in a verdict, a reason or an error page, must not put the key on a page
 * reviewers read), and every character the database cannot hold replaced, so the write cannot fail
 * on the reply and be retried for ever.
 */
function storableResult(result: CriticResultInput, apiKey: string | null): CriticResultInput {
  const clean = (text: string) => storableText(apiKey ? text.replaceAll(apiKey, REDACTED) : text);
  return {
    ...result,
    raw: clean(result.raw),
    error: result.error === null ? null : clean(result.error),
    failedRules: result.failedRules.map(clean),
    rules: result.rules.map((rule) => ({ ...rule, rule: clean(rule.rule), reason: clean(rule.reason) })),
  };
}

const UNREADABLE = {
  status: "UNREADABLE",
  overallPass: null,
  failedRules: [],
  rules: [],
  confidence: null,
} satisfies Partial<CriticResultInput>;

/**
 * A reply read into a result: PARSED when it states a verdict, else UNREADABLE (kept, never pass or
 * fail). A reply cut at the size limit, or holding text the database cannot store (a NUL, a lone
 * surrogate: imports refuse such records), is UNREADABLE with the reason; what can be kept is.
 */
function readCriticReply(reply: {
  text: string;
  isChatCompletion: boolean;
  isCut: boolean;
}): Pick<CriticResultInput, "status" | "overallPass" | "failedRules" | "rules" | "confidence" | "raw" | "error"> {
  if (reply.isCut)
    return {
      ...UNREADABLE,
      raw: reply.text,
      error: `the reply was larger than ${MAX_REPLY_BYTES / 1024 / 1024} MiB: its beginning is kept and not read`,
    };
  const unstorable = unstorableCharacter(reply.text);
  if (unstorable)
    return {
      ...UNREADABLE,
      raw: reply.text,
      error: `the reply held ${unstorable}; it is kept with that character replaced and not read`,
    };
  const verdict = reply.isChatCompletion ? parseCriticOutput(reply.text) : null;
  if (!verdict || verdict.overallPass === null) return { ...UNREADABLE, raw: reply.text, error: null };
  return {
    status: "PARSED",
    overallPass: verdict.overallPass,
    failedRules: verdict.failedRules,
    rules: verdict.rules,
    confidence: findCriticConfidence(reply.text),
    raw: reply.text,
    error: null,
  };
}

/**
 * Works on a RUNNING run until it is done, paused or cancelled, or `budgetMs` has passed (then it
 * returns "continue" and the caller queues the rest). Records that already have a verdict of the
 * run's version are never asked again. A missing API key fails the run with the reason. Throws only
 * when a result cannot be stored (the database is down), so the job is retried.
 */
export async function processCriticRun({
  runId,
  budgetMs = CRITIC_STRETCH_MS,
  graceMs = STRETCH_GRACE_MS,
  retry = DEFAULT_RETRY,
  signal,
}: {
  runId: string;
  budgetMs?: number;
  graceMs?: number;
  retry?: RetryPolicy;
  signal?: AbortSignal;
}): Promise<CriticRunOutcome> {
  const run = await findCriticRunToProcess(runId);
  if (!run || run.status !== "RUNNING") return "stopped";
  const { critic, ...prompt } = run.version;
  let apiKey: string | null;
  try {
    apiKey = apiKeyOf(critic);
  } catch (error) {
    await finishCriticRun({ runId, stopReason: error instanceof Error ? error.message : String(error) });
    return "finished";
  }

  const deadline = Date.now() + budgetMs;
  // Cancelling aborts the requests in flight; pausing lets them finish and keeps their answers.
  const cancelled = new AbortController();
  // A stretch ends within budget + grace however slow the endpoint is (a request may retry for
  // minutes), so the job's expiry, and with it the wait before a crashed stretch is taken up
  // again, stays short.
  const overtime = AbortSignal.timeout(budgetMs + graceMs);
  const requestSignal = AbortSignal.any([cancelled.signal, overtime, ...(signal ? [signal] : [])]);
  let isStopped = false;
  let isOutOfTime = false;
  const poll = setInterval(() => {
    criticRunStatus(runId)
      .then((status) => {
        if (status === "RUNNING") return;
        isStopped = true;
        if (status !== "PAUSED") cancelled.abort();
      })
      .catch(() => {});
  }, STATUS_POLL_MS);

  let afterId = 0;
  async function* pending(): AsyncGenerator<PendingCriticRecord> {
    for (;;) {
      const page = await nextPendingCriticRecords({ runId, afterId, limit: PAGE_SIZE });
      if (page.length === 0) return;
      for (const record of page) {
        if (isStopped || cancelled.signal.aborted || signal?.aborted) return;
        if (Date.now() >= deadline || overtime.aborted) {
          isOutOfTime = true;
          return;
        }
        afterId = record.id;
        yield record;
      }
    }
  }

  async function ask(record: PendingCriticRecord): Promise<void> {
    const started = Date.now();
    let result: CriticResultInput;
    try {
      const reply = await callChatCompletion(
        {
          baseUrl: critic.baseUrl,
          apiKey,
          model: prompt.model,
          temperature: prompt.temperature,
          maxTokens: prompt.maxTokens,
          prompt: renderCriticPrompt(prompt.template, record),
          timeoutMs: critic.timeoutMs,
        },
        { retry, signal: requestSignal },
      );
      result = {
        ...readCriticReply(reply),
        attempts: reply.attempts,
        latencyMs: reply.latencyMs,
        promptTokens: reply.promptTokens,
        completionTokens: reply.completionTokens,
      };
    } catch (error) {
      // A cancelled run, a stopping worker or a stretch out of time keeps no half answer: the
      // record stays pending (and a stretch out of time says so, so the rest is queued).
      if (requestSignal.aborted) {
        if (overtime.aborted) isOutOfTime = true;
        return;
      }
      if (!(error instanceof EndpointError)) throw error;
      result = {
        status: "ERROR",
        overallPass: null,
        failedRules: [],
        rules: [],
        confidence: null,
        raw: "",
        error: error.message,
        attempts: error.attempts,
        latencyMs: Date.now() - started,
        promptTokens: null,
        completionTokens: null,
      };
    }
    await storeResult(record.id, storableResult(result, apiKey));
  }

  /**
   * Stores a result; a write the database refuses for its content (not for being away) is stored
   * as an error without the reply instead, never thrown: a thrown write retries the job, and a
   * write that cannot succeed would ask the endpoint again and again.
   */
  async function storeResult(recordId: number, result: CriticResultInput): Promise<void> {
    try {
      await writeCriticResult({ actor: SYSTEM_ACTOR.worker, runId, recordId, result });
    } catch (error) {
      if (databaseFailure(error)?.code === "UNAVAILABLE") throw error;
      console.error(`critic run ${runId}: the result for record ${recordId} could not be stored`, error);
      await writeCriticResult({
        actor: SYSTEM_ACTOR.worker,
        runId,
        recordId,
        result: {
          ...result,
          ...UNREADABLE,
          status: "ERROR",
          raw: "",
          error: "the reply could not be stored (the database refused it); it was dropped",
        },
      });
    }
  }

  try {
    const records = pending();
    // `concurrency` lanes share one generator: each takes the next record when its last answer is stored.
    const lanes = Array.from({ length: critic.concurrency }, async () => {
      for (;;) {
        const next = await records.next();
        if (next.done) return;
        await ask(next.value);
      }
    });
    await Promise.all(lanes);
  } finally {
    clearInterval(poll);
  }
  if (signal?.aborted) return "stopped";
  if (isStopped || (await criticRunStatus(runId)) !== "RUNNING") return "stopped";
  if (isOutOfTime) return "continue";
  await finishCriticRun({ runId });
  return "finished";
}
