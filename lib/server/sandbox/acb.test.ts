import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { buildAcbRequest, createAcbBackend, mapAcbResponse } from "./acb";
import { SandboxError } from "./errors";

type Reply = { status: number; body: string };

// A stand-in for the MultiLanguageSandbox: answers by the solution text, records what it received.
const received: Array<Record<string, unknown>> = [];
let server: Server;
let url: string;

function replyFor(body: Record<string, unknown>): Reply {
  const solution = String(body.func_code);
  const base = {
    src_uid: body.src_uid,
    all_code: `${solution}\n${String(body.main_code)}`,
    exec_compile_message: "",
    exec_runtime_message: "",
  };
  if (solution === "pass") {
    return {
      status: 200,
      body: JSON.stringify({
        ...base,
        exec_cout: "ok\n",
        exec_outcome: "PASSED",
        response_extensions: { timeout: false, exit_code: 0, stdout: "ok\n", stderr: "", process_peak_memory: 2048, exec_runtime: 0.25 },
      }),
    };
  }
  if (solution === "crash") {
    return {
      status: 200,
      body: JSON.stringify({
        ...base,
        exec_cout: "",
        exec_outcome: "RUNTIME_ERROR",
        exec_runtime_message: "Traceback: boom",
        response_extensions: { timeout: false, exit_code: 1, stdout: "", stderr: "Traceback: boom", exec_runtime: 0.1 },
      }),
    };
  }
  if (solution === "loop") {
    return {
      status: 200,
      body: JSON.stringify({
        ...base,
        exec_cout: "",
        exec_outcome: "TIME_LIMIT_EXCEEDED",
        response_extensions: { timeout: true, exit_code: -1, stdout: "", stderr: "", exec_runtime: 5.1 },
      }),
    };
  }
  if (solution === "internal") {
    return {
      status: 500,
      body: JSON.stringify({ src_uid: body.src_uid, exec_cout: "", exec_outcome: "INTERNAL_ERROR", exec_compile_message: "", exec_runtime_message: "server error: disk full", response_extensions: { server_ip: "172.17.0.2" } }),
    };
  }
  return { status: 502, body: "<html>bad gateway</html>" };
}

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
    const result = await createAcbBackend({ url }).run({ language: "kotlin", solution: "internal", test: "t" });
    expect(result.outcome).toBe("INTERNAL_ERROR");
    expect(result.stderr).toContain("disk full");
    // The service did not echo the program; the locally spliced one is shown instead.
    expect(result.program).toBe(["internal", "", "t", ""].join("\n"));
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
