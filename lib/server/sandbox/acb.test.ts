import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { buildAcbRequest, createAcbBackend, mapAcbResponse } from "./acb";
import { SandboxError } from "./errors";
import { getRecipe } from "./recipes";

type Reply = { status: number; body: string } | "drop";

/*
 * A stand-in for the MultiLanguageSandbox that behaves as the real one does where it matters:
 * it keeps only the first 1 KiB read of a stream from a program that exits at once, reports a
 * signal death as a negative exit code and an unsampled process as 0 kB, repeats a compile error
 * in `stderr`, fails languages whose toolchain it lacks with INTERNAL_ERROR, and drops a request
 * that outlives its (gunicorn) limit. It answers by the solution text and records what it got.
 */
const FAKE_LANGUAGES = new Set(["python", "ruby", "cpp"]);
const received: Array<Record<string, unknown>> = [];
let server: Server;
let url: string;

function ok(
  body: Record<string, unknown>,
  outcome: string,
  ext: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Reply {
  const stdout = String(ext.stdout ?? "");
  return {
    status: 200,
    body: JSON.stringify({
      src_uid: body.src_uid,
      all_code: `${String(body.func_code)}\n${String(body.main_code)}`,
      exec_cout: stdout,
      exec_outcome: outcome,
      exec_compile_message: "",
      exec_runtime_message: outcome === "RUNTIME_ERROR" ? String(ext.stderr ?? "") : "",
      ...extra,
      response_extensions: {
        server_ip: "172.17.0.2",
        timeout: false,
        exit_code: 0,
        stdout,
        stderr: "",
        process_peak_memory: 0,
        exec_runtime: 0.05,
        ...ext,
      },
    }),
  };
}

function replyFor(body: Record<string, unknown>): Reply {
  const solution = String(body.func_code);
  if (!FAKE_LANGUAGES.has(String(body.lang))) {
    // The executor raised before any step ran: the extensions carry only the server's address.
    return {
      status: 200,
      body: JSON.stringify({
        src_uid: body.src_uid,
        all_code: "",
        exec_cout: "",
        exec_outcome: "INTERNAL_ERROR",
        exec_compile_message: "",
        exec_runtime_message: `execution failed: [Errno 2] No such file or directory: '${String(body.lang)}c'`,
        response_extensions: { server_ip: "172.17.0.2" },
      }),
    };
  }
  const printed = /^print:(\d+)$/.exec(solution);
  if (printed) return ok(body, "PASSED", { stdout: "x".repeat(Math.min(Number(printed[1]), 1024)) });
  switch (solution) {
    case "crash":
      return ok(body, "RUNTIME_ERROR", {
        exit_code: 1,
        stderr: "Traceback: boom",
        process_peak_memory: 2048,
        exec_runtime: 0.1,
      });
    case "abort":
      return ok(body, "RUNTIME_ERROR", { exit_code: -6, stderr: "terminate called after throwing" });
    case "compile-error":
      return ok(
        body,
        "COMPILATION_ERROR",
        { exit_code: 1, stderr: "x.cpp:1: error: expected ';'" },
        { exec_compile_message: "x.cpp:1: error: expected ';'" },
      );
    case "loop":
      return ok(body, "TIME_LIMIT_EXCEEDED", { timeout: true, exit_code: -1, exec_runtime: 5.1 });
    case "sleep":
      return "drop";
    case "internal":
      return {
        status: 500,
        body: JSON.stringify({
          src_uid: body.src_uid,
          exec_cout: "",
          exec_outcome: "INTERNAL_ERROR",
          exec_compile_message: "",
          exec_runtime_message: "server error: disk full",
          response_extensions: { server_ip: "172.17.0.2" },
        }),
      };
    case "garbage":
      return { status: 502, body: "<html>bad gateway</html>" };
    default:
      return ok(body, "PASSED", { stdout: "ok\n", process_peak_memory: 2048, exec_runtime: 0.25 });
  }
}

// The fake's gunicorn limit: a dropped request closes its connection after this long.
const FAKE_REQUEST_LIMIT_MS = 400;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    if (request.method !== "POST" || request.url !== "/submit") {
      response.writeHead(404).end("not found");
      return;
    }
    const body = JSON.parse(await readBody(request)) as Record<string, unknown>;
    received.push(body);
    const reply = replyFor(body);
    if (reply === "drop") {
      setTimeout(() => request.socket.destroy(), FAKE_REQUEST_LIMIT_MS);
      return;
    }
    response.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("acb backend against a fake service", () => {
  it("sends real JSON booleans, the timeout in seconds and the record's parts", async () => {
    const backend = createAcbBackend({ url: `${url}/` });
    await backend.run({ language: "python", solution: "pass", test: "assert True", timeoutMs: 30_000 });
    const body = received.at(-1);
    expect(body).toMatchObject({
      lang: "python",
      func_code: "pass",
      main_code: "assert True",
      show_log: true,
      request_extensions: { timeout: 30 },
    });
    expect(typeof body?.src_uid).toBe("string");
  });

  it("maps a PASSED answer to the normalised result", async () => {
    const result = await createAcbBackend({ url }).run({ language: "python", solution: "pass", test: "t" });
    expect(result).toMatchObject({
      outcome: "PASSED",
      exitCode: 0,
      stdout: "ok\n",
      stderr: "",
      compileOutput: null,
      timeMs: 250,
      memoryKb: 2048,
      limit: null,
      backend: "acb",
      language: "python",
      program: "pass\nt",
    });
  });

  it("maps runtime errors and timeouts", async () => {
    const backend = createAcbBackend({ url });
    const crash = await backend.run({ language: "ruby", solution: "crash", test: "t" });
    expect(crash.outcome).toBe("RUNTIME_ERROR");
    expect(crash.stderr).toBe("Traceback: boom");
    expect(crash.exitCode).toBe(1);
    const loop = await backend.run({ language: "ruby", solution: "loop", test: "t" });
    expect(loop.outcome).toBe("TIME_LIMIT_EXCEEDED");
    expect(loop.limit).toBe("time");
    expect(loop.exitCode).toBeNull();
  });

  it("turns an HTTP 500 with INTERNAL_ERROR into an INTERNAL_ERROR result carrying the message", async () => {
    const result = await createAcbBackend({ url }).run({ language: "python", solution: "internal", test: "t" });
    expect(result.outcome).toBe("INTERNAL_ERROR");
    expect(result.stderr).toContain("disk full");
    // The service did not echo the program; the locally spliced one is shown instead.
    expect(result.program).toBe(getRecipe("python").splice("internal", "t").program);
  });

  it("throws SANDBOX_FAILED on a non-JSON answer", async () => {
    const run = createAcbBackend({ url }).run({ language: "python", solution: "garbage", test: "t" });
    await expect(run).rejects.toThrow(/HTTP 502 without JSON/);
  });

  it("says the service is unreachable when nothing listens", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const backend = createAcbBackend({ url: deadUrl });
    const error = await backend.run({ language: "python", solution: "pass", test: "t" }).catch((caught) => caught);
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).code).toBe("SANDBOX_UNAVAILABLE");
    expect((error as Error).message).toMatch(new RegExp(`^acb sandbox at ${deadUrl} is unreachable: `));
    await expect(backend.availability("python")).resolves.toMatchObject({ available: false });
    await expect(createAcbBackend({ url }).availability("python")).resolves.toEqual({ available: true });
  });

  it("abandons a request that outlives its budget", async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const backend = createAcbBackend({ url: silentUrl, requestSlackMs: 0 });
    // python: 2 × (100 ms + 0 allowance) budget
    await expect(backend.run({ language: "python", solution: "x", test: "t", timeoutMs: 100 })).rejects.toThrow(
      /did not answer within/,
    );
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });
});

describe("acb backend: what the real service does", () => {
  it("flags output of 1 KiB or more as possibly cut (the service keeps the first chunk it read)", async () => {
    const backend = createAcbBackend({ url });
    const long = await backend.run({ language: "python", solution: "print:1500", test: "t" });
    expect(Buffer.byteLength(long.stdout)).toBe(1024);
    expect(long.stdoutTruncated).toBe(true);
    const short = await backend.run({ language: "python", solution: "print:500", test: "t" });
    expect(short.stdout).toHaveLength(500);
    expect(short.stdoutTruncated).toBe(false);
  });

  it("names the signal of a negative exit code, as the local backend does", async () => {
    const result = await createAcbBackend({ url }).run({ language: "cpp", solution: "abort", test: "t" });
    expect(result).toMatchObject({ outcome: "RUNTIME_ERROR", signal: "SIGABRT", exitCode: 134 });
  });

  it("shows a compile error once, and an unsampled memory peak as unknown", async () => {
    const result = await createAcbBackend({ url }).run({ language: "cpp", solution: "compile-error", test: "t" });
    expect(result.outcome).toBe("COMPILATION_ERROR");
    expect(result.compileOutput).toBe("x.cpp:1: error: expected ';'");
    expect(result.stderr).toBe("");
    expect(result.memoryKb).toBeNull();
  });

  it("probes availability per language with its hello program, and caches the answer", async () => {
    const backend = createAcbBackend({ url });
    const before = received.length;
    await expect(backend.availability("python")).resolves.toEqual({ available: true });
    const kotlin = await backend.availability("kotlin");
    expect(kotlin.available).toBe(false);
    expect(kotlin.reason).toMatch(
      /cannot run kotlin: its test program ended INTERNAL_ERROR \(execution failed: \[Errno 2\]/,
    );
    await backend.availability("python");
    await backend.availability("kotlin");
    expect(received.length - before).toBe(2);
    expect(received.slice(before).map((body) => body.lang)).toEqual(["python", "kotlin"]);
  });

  it("probes a language the service could not run again after a short while", async () => {
    const backend = createAcbBackend({ url, probeTtlMs: { available: 60_000, unavailable: 50 } });
    const before = received.length;
    await backend.availability("kotlin");
    await new Promise((resolve) => setTimeout(resolve, 120));
    await backend.availability("kotlin");
    expect(received.length - before).toBe(2);
  });

  it("caps the time limit to what fits in the service's request limit", () => {
    expect(
      buildAcbRequest({ language: "python", solution: "a", test: "b", timeoutMs: 120_000 }, "id").request_extensions
        .timeout,
    ).toBe(55);
    // C++ compiles then runs inside one request, each step with 3 s of language allowance on top.
    expect(
      buildAcbRequest({ language: "cpp", solution: "a", test: "b", timeoutMs: 120_000 }, "id").request_extensions
        .timeout,
    ).toBe(24);
    expect(
      buildAcbRequest({ language: "cpp", solution: "a", test: "b", timeoutMs: 10_000 }, "id").request_extensions
        .timeout,
    ).toBe(10);
  });

  it("reports a request the service dropped at its limit as TIME_LIMIT_EXCEEDED, not as unreachable", async () => {
    const backend = createAcbBackend({ url, requestLimitMs: FAKE_REQUEST_LIMIT_MS });
    const result = await backend.run({ language: "python", solution: "sleep", test: "t" });
    expect(result).toMatchObject({ outcome: "TIME_LIMIT_EXCEEDED", limit: "time", backend: "acb" });
    expect(result.stderr).toContain("its own limit");
  });
});

describe("acb mapping (pure)", () => {
  it("builds the request and maps an unknown outcome to INTERNAL_ERROR", () => {
    expect(buildAcbRequest({ language: "go", solution: "a", test: "b" }, "id-1")).toEqual({
      src_uid: "id-1",
      lang: "go",
      func_code: "a",
      main_code: "b",
      show_log: true,
      request_extensions: { timeout: 5 },
    });
    const result = mapAcbResponse(
      { exec_outcome: "UNKNOWN_ERROR", exec_compile_message: "x.cpp:1: error", exec_cout: "y".repeat(3000) },
      { language: "cpp", program: "p", wallMs: 7 },
    );
    expect(result.outcome).toBe("INTERNAL_ERROR");
    expect(result.compileOutput).toBe("x.cpp:1: error");
    expect(result.timeMs).toBe(7);
    expect(result.stdoutTruncated).toBe(true);
  });
});
