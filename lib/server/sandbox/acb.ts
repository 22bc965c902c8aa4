import "server-only";

import { randomUUID } from "node:crypto";
import { constants as osConstants } from "node:os";

import { z } from "zod";

import { SandboxError } from "./errors";
import { getRecipe, stepTimeoutMs } from "./recipes";
import { parseRunRequest } from "./request";
import {
  type BackendAvailability,
  DEFAULT_TIMEOUT_MS,
  type Outcome,
  OUTCOMES,
  type RunOptions,
  type RunRequest,
  type SandboxBackend,
  type SandboxLanguage,
  type SandboxResult,
} from "./types";

/*
 * Client for the AutoCodeBench MultiLanguageSandbox (`hunyuansandbox/multi-language-sandbox`).
 * Its answer to POST /submit, as published with the service:
 *   { src_uid, all_code (the spliced program), exec_cout (stdout), exec_outcome,
 *     exec_compile_message, exec_runtime_message (stderr; both only when show_log is the JSON
 *     boolean true and the outcome is not PASSED),
 *     response_extensions: { server_ip, cmd, timeout (bool: timed out), exit_code (-1 on timeout),
 *       stdout, stderr, process_cpu_time (s), process_exec_time (s), process_peak_memory (kB,
 *       summed VmPeak), outcome, exec_runtime (s) } }
 * Failures inside the service come back as HTTP 500 with exec_outcome INTERNAL_ERROR.
 */
const acbResponseSchema = z.looseObject({
  src_uid: z.string().nullish(),
  all_code: z.string().nullish(),
  exec_cout: z.string().nullish(),
  exec_outcome: z.string(),
  exec_compile_message: z.string().nullish(),
  exec_runtime_message: z.string().nullish(),
  response_extensions: z
    .looseObject({
      timeout: z.boolean().nullish(),
      exit_code: z.number().nullish(),
      stdout: z.string().nullish(),
      stderr: z.string().nullish(),
      process_peak_memory: z.number().nullish(),
      exec_runtime: z.number().nullish(),
    })
    .nullish(),
});

export type AcbResponse = z.infer<typeof acbResponseSchema>;

/*
 * How much output survives: the service reads each stream in 1 KiB chunks every 0.1 s, stops
 * saving after about 2 KiB, and stops reading when the program exits. So 1 500 bytes written at
 * once can come back as 1 024, and any answer of 1 KiB or more may have been cut.
 */
const ACB_READ_CHUNK_BYTES = 1024;

/** The service runs under gunicorn, which kills a request after 60 s (its `timeout`). */
export const ACB_REQUEST_LIMIT_MS = 60_000;
// Left for splicing, start-up and the answer's transfer inside that minute.
const ACB_REQUEST_MARGIN_MS = 5_000;

export type AcbBackendOptions = {
  url: string;
  /** Added to the run's own time budget before the HTTP request is abandoned. */
  requestSlackMs?: number;
  /** The service's own request limit (gunicorn's timeout); only tests change it. */
  requestLimitMs?: number;
  /** How long a language's probe answer is trusted: longer when it could run, short when not. */
  probeTtlMs?: { available: number; unavailable: number };
};

/**
 * The per-step timeout in whole seconds to send (pure). The service gives each step (compile,
 * run) that many seconds plus the language's allowance, all inside one request, so the value is
 * capped to what fits in the request limit: past it gunicorn drops the connection and the run's
 * real outcome, a time-out, would be lost.
 */
function acbStepTimeoutSeconds(
  language: SandboxLanguage,
  timeoutMs: number,
  requestLimitMs = ACB_REQUEST_LIMIT_MS,
): number {
  const recipe = getRecipe(language);
  const steps = recipe.compile ? 2 : 1;
  const perStepMs = Math.floor((requestLimitMs - ACB_REQUEST_MARGIN_MS) / steps) - recipe.timeoutAllowanceMs;
  return Math.max(1, Math.floor(Math.min(timeoutMs, perStepMs) / 1000));
}

/** The JSON body of a /submit request (pure); booleans are real JSON booleans. */
export function buildAcbRequest(request: RunRequest, srcUid: string, requestLimitMs = ACB_REQUEST_LIMIT_MS) {
  return {
    src_uid: srcUid,
    lang: request.language,
    // The service splices these itself, as the reference pipeline has it do.
    func_code: request.solution,
    main_code: request.test,
    show_log: true,
    // Seconds; the service adds its own per-language allowance on top, as we do locally.
    request_extensions: {
      timeout: acbStepTimeoutSeconds(request.language, request.timeoutMs ?? DEFAULT_TIMEOUT_MS, requestLimitMs),
    },
  };
}

/** The service reports a program killed by signal N as exit code -N (Python's returncode). */
function signalFromNegativeCode(
  exitCode: number,
  signals: Readonly<Record<string, number>> = osConstants.signals,
): string | null {
  if (exitCode >= 0 || exitCode === -1) return null; // -1 is the service's "timed out"
  return Object.entries(signals).find(([, value]) => value === -exitCode)?.[0] ?? null;
}

function toOutcome(name: string): Outcome {
  if ((OUTCOMES as readonly string[]).includes(name)) return name as Outcome;
  if (name === "TIMEOUT") return "TIME_LIMIT_EXCEEDED";
  return "INTERNAL_ERROR";
}

/** Maps an acb answer to the normalised result (pure). */
export function mapAcbResponse(
  response: AcbResponse,
  context: { language: SandboxLanguage; program: string; wallMs: number },
): SandboxResult {
  const ext = response.response_extensions ?? {};
  const outcome = toOutcome(response.exec_outcome);
  const compileOutput = response.exec_compile_message ? response.exec_compile_message : null;
  const stdout = ext.stdout ?? response.exec_cout ?? "";
  const rawStderr = ext.stderr ?? response.exec_runtime_message ?? "";
  // On a compile error the compiler's stderr is both `stderr` and the compile message: show it once.
  const stderr = compileOutput !== null && rawStderr === compileOutput ? "" : rawStderr;
  const timedOut = ext.timeout === true || outcome === "TIME_LIMIT_EXCEEDED";
  const code = timedOut || ext.exit_code === undefined || ext.exit_code === null ? null : ext.exit_code;
  const signal = code === null ? null : signalFromNegativeCode(code);
  return {
    outcome,
    // Shown as the local backend shows it: 128+N with the signal's name.
    exitCode: code !== null && signal ? 128 - code : code,
    signal,
    stdout,
    stderr,
    compileOutput,
    timeMs: typeof ext.exec_runtime === "number" ? Math.round(ext.exec_runtime * 1000) : context.wallMs,
    // The service sums VmPeak and says 0 when it never sampled the process: unknown, not zero.
    memoryKb: ext.process_peak_memory ? ext.process_peak_memory : null,
    limit: timedOut ? "time" : null,
    stdoutTruncated: Buffer.byteLength(stdout) >= ACB_READ_CHUNK_BYTES,
    stderrTruncated: Buffer.byteLength(stderr) >= ACB_READ_CHUNK_BYTES,
    program: response.all_code || context.program,
    backend: "acb",
    language: context.language,
  };
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
}

/** A result for a request the service dropped at its own time limit: the program ran out of time. */
function requestLimitResult(
  language: SandboxLanguage,
  program: string,
  requestLimitMs: number,
  wallMs: number,
): SandboxResult {
  return {
    outcome: "TIME_LIMIT_EXCEEDED",
    exitCode: null,
    signal: null,
    stdout: "",
    stderr: `The acb sandbox stopped the request at its own limit of ${Math.round(requestLimitMs / 1000)} s.`,
    compileOutput: null,
    timeMs: wallMs,
    memoryKb: null,
    limit: "time",
    stdoutTruncated: false,
    stderrTruncated: false,
    program,
    backend: "acb",
    language,
  };
}

/** Creates the acb backend for the service at `url`. */
export function createAcbBackend(options: AcbBackendOptions): SandboxBackend {
  const url = options.url.replace(/\/+$/, "");
  const slackMs = options.requestSlackMs ?? 30_000;
  const requestLimitMs = options.requestLimitMs ?? ACB_REQUEST_LIMIT_MS;
  const probeTtlMs = options.probeTtlMs ?? { available: 5 * 60_000, unavailable: 30_000 };

  async function run(input: RunRequest, { signal }: RunOptions = {}): Promise<SandboxResult> {
    const request = parseRunRequest(input);
    // Spliced locally too, so the program is shown even when the service does not echo it.
    const program = getRecipe(request.language).splice(request.solution, request.test).program;
    const body = buildAcbRequest(request, randomUUID(), requestLimitMs);
    // Compile and run each get the step timeout on the service, never past its request limit.
    const serviceMs = Math.min(
      2 * stepTimeoutMs(request.language, body.request_extensions.timeout * 1000),
      requestLimitMs,
    );
    const budgetMs = serviceMs + slackMs;
    const started = performance.now();
    const elapsedMs = () => Math.round(performance.now() - started);
    let response: Response;
    try {
      response = await fetch(`${url}/submit`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        // The caller going away ends the request too.
        signal: signal ? AbortSignal.any([AbortSignal.timeout(budgetMs), signal]) : AbortSignal.timeout(budgetMs),
      });
    } catch (error) {
      if (signal?.aborted) throw new SandboxError("SANDBOX_CANCELLED", "The run was cancelled: its caller went away.");
      if ((error as Error).name === "TimeoutError") {
        throw new SandboxError(
          "SANDBOX_FAILED",
          `acb sandbox at ${url} did not answer within ${Math.round(budgetMs / 1000)} s`,
        );
      }
      // gunicorn kills a request at its limit and the connection just closes: the program's time ran out.
      if (elapsedMs() >= requestLimitMs * 0.9)
        return requestLimitResult(request.language, program, requestLimitMs, elapsedMs());
      throw new SandboxError("SANDBOX_UNAVAILABLE", `acb sandbox at ${url} is unreachable: ${describeCause(error)}`, {
        cause: error,
      });
    }
    const text = await response.text();
    let parsedJson: unknown;
    try {
      parsedJson = JSON.parse(text);
    } catch {
      throw new SandboxError(
        "SANDBOX_FAILED",
        `acb sandbox at ${url} answered HTTP ${response.status} without JSON: ${text.slice(0, 200)}`,
      );
    }
    const parsed = acbResponseSchema.safeParse(parsedJson);
    if (!parsed.success) {
      throw new SandboxError(
        "SANDBOX_FAILED",
        `acb sandbox at ${url} answered HTTP ${response.status} with an unexpected shape: ${parsed.error.issues[0]?.message ?? ""}`,
      );
    }
    // HTTP 500 carries exec_outcome INTERNAL_ERROR and the service's message; it is a result, not a throw.
    return mapAcbResponse(parsed.data, { language: request.language, program, wallMs: elapsedMs() });
  }

  const probes = new Map<SandboxLanguage, { checkedAt: number; value: Promise<BackendAvailability> }>();

  /** Whether the service can run this language: its hello program must pass there. */
  async function probe(language: SandboxLanguage): Promise<BackendAvailability> {
    try {
      const result = await run({ language, ...getRecipe(language).hello, timeoutMs: 30_000 });
      if (result.outcome === "PASSED") return { available: true };
      const detail = (result.stderr || result.compileOutput || result.stdout).trim().split("\n")[0]?.slice(0, 200);
      return {
        available: false,
        reason: `the acb sandbox at ${url} cannot run ${language}: its test program ended ${result.outcome}${detail ? ` (${detail})` : ""}`,
      };
    } catch (error) {
      return { available: false, reason: (error as Error).message };
    }
  }

  function availability(language: SandboxLanguage): Promise<BackendAvailability> {
    const cached = probes.get(language);
    if (cached) return cached.value;
    const entry = { checkedAt: Date.now(), value: probe(language) };
    probes.set(language, entry);
    // Trust an answer for a while; a "cannot run" only briefly, so a fixed service is seen soon.
    void entry.value.then((value) => {
      setTimeout(
        () => probes.get(language) === entry && probes.delete(language),
        value.available ? probeTtlMs.available : probeTtlMs.unavailable,
      ).unref();
    });
    return entry.value;
  }

  return { name: "acb", run, availability };
}
