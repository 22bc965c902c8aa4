import "server-only";

import { randomUUID } from "node:crypto";

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

// The service keeps only about the first 2 KiB of each stream; longer output is silently cut.
const ACB_OUTPUT_KEEP_BYTES = 2048;

export type AcbBackendOptions = {
  url: string;
  /** Added to the run's own time budget before the HTTP request is abandoned. */
  requestSlackMs?: number;
};

/** The JSON body of a /submit request (pure); booleans are real JSON booleans. */
export function buildAcbRequest(request: RunRequest, srcUid: string) {
  return {
    src_uid: srcUid,
    lang: request.language,
    func_code: request.solution,
    main_code: request.test,
    show_log: true,
    // Seconds; the service adds its own per-language allowance on top, as we do locally.
    request_extensions: { timeout: Math.ceil((request.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000) },
  };
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
  const stdout = ext.stdout ?? response.exec_cout ?? "";
  const stderr = ext.stderr ?? response.exec_runtime_message ?? "";
  const timedOut = ext.timeout === true || outcome === "TIME_LIMIT_EXCEEDED";
  const exitCode = timedOut || ext.exit_code === undefined || ext.exit_code === null ? null : ext.exit_code;
  return {
    outcome,
    exitCode,
    signal: null,
    stdout,
    stderr,
    compileOutput: response.exec_compile_message ? response.exec_compile_message : null,
    timeMs: typeof ext.exec_runtime === "number" ? Math.round(ext.exec_runtime * 1000) : context.wallMs,
    memoryKb: ext.process_peak_memory ?? null,
    limit: timedOut ? "time" : null,
    stdoutTruncated: Buffer.byteLength(stdout) >= ACB_OUTPUT_KEEP_BYTES,
    stderrTruncated: Buffer.byteLength(stderr) >= ACB_OUTPUT_KEEP_BYTES,
    program: response.all_code || context.program,
    backend: "acb",
    language: context.language,
  };
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
}

/** Creates the acb backend for the service at `url`. */
export function createAcbBackend(options: AcbBackendOptions): SandboxBackend {
  const url = options.url.replace(/\/+$/, "");
  const slackMs = options.requestSlackMs ?? 30_000;

  async function run(input: RunRequest, { signal }: RunOptions = {}): Promise<SandboxResult> {
    const request = parseRunRequest(input);
    // Spliced locally too, so the program is shown even when the service does not echo it.
    const program = getRecipe(request.language).splice(request.solution, request.test).program;
    // Compile and run each get the step timeout on the service; allow both plus transport slack.
    const budgetMs = 2 * stepTimeoutMs(request.language, request.timeoutMs ?? DEFAULT_TIMEOUT_MS) + slackMs;
    const started = performance.now();
    let response: Response;
    try {
      response = await fetch(`${url}/submit`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(buildAcbRequest(request, randomUUID())),
        // The caller going away ends the request too.
        signal: signal ? AbortSignal.any([AbortSignal.timeout(budgetMs), signal]) : AbortSignal.timeout(budgetMs),
      });
    } catch (error) {
      if (signal?.aborted) throw new SandboxError("SANDBOX_CANCELLED", "The run was cancelled: its caller went away.");
      if ((error as Error).name === "TimeoutError") {
        throw new SandboxError("SANDBOX_FAILED", `acb sandbox at ${url} did not answer within ${Math.round(budgetMs / 1000)} s`);
      }
      throw new SandboxError("SANDBOX_UNAVAILABLE", `acb sandbox at ${url} is unreachable: ${describeCause(error)}`, {
        cause: error,
      });
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new SandboxError(
        "SANDBOX_FAILED",
        `acb sandbox at ${url} answered HTTP ${response.status} without JSON: ${text.slice(0, 200)}`,
      );
    }
    const parsed = acbResponseSchema.safeParse(body);
    if (!parsed.success) {
      throw new SandboxError(
        "SANDBOX_FAILED",
        `acb sandbox at ${url} answered HTTP ${response.status} with an unexpected shape: ${parsed.error.issues[0]?.message ?? ""}`,
      );
    }
    // HTTP 500 carries exec_outcome INTERNAL_ERROR and the service's message; it is a result, not a throw.
    return mapAcbResponse(parsed.data, {
      language: request.language,
      program,
      wallMs: Math.round(performance.now() - started),
    });
  }

  let reachability: { checkedAt: number; value: BackendAvailability } | null = null;

  async function availability(): Promise<BackendAvailability> {
    if (reachability && Date.now() - reachability.checkedAt < 60_000) return reachability.value;
    let value: BackendAvailability;
    try {
      // Any HTTP answer means the service is up; it has no health endpoint.
      await fetch(url, { method: "GET", signal: AbortSignal.timeout(3_000) });
      value = { available: true };
    } catch (error) {
      value = { available: false, reason: `acb sandbox at ${url} is unreachable: ${describeCause(error)}` };
    }
    reachability = { checkedAt: Date.now(), value };
    return value;
  }

  return { name: "acb", run, availability };
}
