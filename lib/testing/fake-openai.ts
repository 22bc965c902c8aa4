// A fake OpenAI-compatible chat endpoint for tests, benchmarks and e2e: POST {base}/chat/completions
// answers as the protocol documents (a chat.completion with `choices[0].message.content` and
// `usage`; errors as `{error: {message, type}}`), and each test scripts what it answers — a verdict,
// a 429 with Retry-After, a 500, a slow reply, prose, a reply in a Markdown fence, a body that is not JSON.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import { CRITIC_RULES } from "@/lib/critics/template";

/** What the fake received: the parsed request body, the user prompt, the bearer token, when. */
type FakeRequest = {
  body: { model?: string; messages?: { role: string; content: string }[]; temperature?: number; max_tokens?: number };
  prompt: string;
  authorization: string | null;
  receivedAt: number;
};

/**
 * One scripted answer. `content` is the assistant message (in a normal chat.completion); `body`
 * replaces the whole HTTP body (say, text that is not JSON); `status` other than 200 answers an
 * OpenAI-style error; `usage: null` leaves usage out, as some endpoints do.
 */
type FakeReply = {
  status?: number;
  headers?: Record<string, string>;
  content?: string;
  body?: string;
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  delayMs?: number;
};

/** Decides the answer to a request; `index` counts requests from 0. */
export type FakeScript = (request: FakeRequest, index: number) => FakeReply | Promise<FakeReply>;

export type FakeOpenAI = {
  /** The base URL to configure a critic with (ends in /v1). */
  baseUrl: string;
  requests: FakeRequest[];
  /** Requests being answered right now, and the most at once so far. */
  inFlight: () => number;
  maxInFlight: () => number;
  setScript: (script: FakeScript) => void;
  close: () => Promise<void>;
};

/** The critic JSON an answer holds: pass, or fail with the given rules; optionally a confidence. */
export function criticAnswer({
  pass,
  failedRules = [],
  confidence,
}: {
  pass: boolean;
  failedRules?: string[];
  confidence?: number;
}): string {
  const failed = pass ? [] : failedRules.length > 0 ? failedRules : ["Other Issues"];
  return JSON.stringify({
    rule_results: CRITIC_RULES.map((rule) => ({
      rule,
      result: failed.includes(rule) ? "fail" : "pass",
      reason: failed.includes(rule) ? "the fake says so" : "fine",
    })),
    summary: {
      overall_pass: pass,
      failed_rules: failed,
      key_points: [],
      ...(confidence === undefined ? {} : { confidence }),
    },
  });
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function sendJson(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(value));
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  429: "rate_limit_exceeded",
  500: "server_error",
  503: "server_error",
};

/** Starts the fake on 127.0.0.1 (port 0: any free one unless given). */
export async function startFakeOpenAI(script: FakeScript, { port = 0 }: { port?: number } = {}): Promise<FakeOpenAI> {
  let current = script;
  let inFlight = 0;
  let maxInFlight = 0;
  const requests: FakeRequest[] = [];
  const server = createServer(async (request, response) => {
    if (request.method !== "POST" || request.url !== "/v1/chat/completions") {
      sendJson(response, 404, { error: { message: `no route ${request.method} ${request.url}`, type: "not_found" } });
      return;
    }
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      const text = await readBody(request);
      let body: FakeRequest["body"];
      try {
        body = JSON.parse(text) as FakeRequest["body"];
      } catch {
        sendJson(response, 400, { error: { message: "the body is not JSON", type: ERROR_TYPES[400] } });
        return;
      }
      const prompt = body.messages?.findLast((message) => message.role === "user")?.content ?? "";
      const received: FakeRequest = {
        body,
        prompt,
        authorization: request.headers.authorization ?? null,
        receivedAt: Date.now(),
      };
      const index = requests.push(received) - 1;
      const reply = await current(received, index);
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      // The client gave up (its timeout): nothing to answer.
      if (response.destroyed || !response.socket || response.socket.destroyed) return;
      const status = reply.status ?? 200;
      if (reply.body !== undefined) {
        response.writeHead(status, { "content-type": "text/plain", ...reply.headers });
        response.end(reply.body);
      } else if (status !== 200) {
        sendJson(
          response,
          status,
          { error: { message: `fake error ${status}`, type: ERROR_TYPES[status] ?? "error" } },
          reply.headers,
        );
      } else {
        const content = reply.content ?? criticAnswer({ pass: true });
        const usage =
          reply.usage === null
            ? undefined
            : (reply.usage ?? {
                prompt_tokens: Math.ceil(prompt.length / 4),
                completion_tokens: Math.ceil(content.length / 4),
              });
        sendJson(
          response,
          200,
          {
            id: `chatcmpl-fake-${index}`,
            object: "chat.completion",
            created: Math.floor(Date.now() / 1000),
            model: body.model ?? "fake",
            choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
            ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
          },
          reply.headers,
        );
      }
    } finally {
      inFlight--;
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${bound}/v1`,
    requests,
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    setScript: (next) => {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
